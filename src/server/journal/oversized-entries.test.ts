import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_CONTENT_MAX } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { buildTestApp, type TestApp } from '../test/app';
import { changeJournal } from './changes';
import { encryptEntryChanges } from './entry-cipher';
import { ownerSalt } from './owner';
import * as repo from './repo';
import { createEntry, journalUser, type JournalTestUser } from '../test/journal';

/**
 * Day entries that texts made longer than the limit, before texts started continuation entries
 * (e.g. 19,201 characters): they can still be edited, as long as the edit does not make them longer.
 */
describe('editing an entry that is already over the length limit', () => {
  let t: TestApp;
  let alice: JournalTestUser;
  const oversized = 'word '.repeat(3_840).trim(); // 19,199 characters
  let entryId: string;

  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-03-04T15:00:00Z'));
    alice = await journalUser(t);
    entryId = (await createEntry(t, alice, { content: 'short for now' })).id;
    // Written as the old SMS path did: straight into the stored entry.
    const salt = await ownerSalt(t.app.ctx, alice.id);
    await changeJournal(t.app.ctx, alice.id, async (trx) => {
      await repo.updateEntry(trx, alice.id, entryId, encryptEntryChanges(t.app.ctx, alice.id, salt, { content: oversized }));
      return { entryId };
    });
  });
  afterAll(() => t.close());

  const patch = (payload: object) => t.app.inject({ method: 'PATCH', url: `/api/entries/${entryId}`, headers: alice.headers, payload });

  it('saves a tag or a title added to it with its text unchanged', async () => {
    expect(oversized.length).toBeGreaterThan(ENTRY_CONTENT_MAX);
    const res = await patch({ content: oversized, tags: 'long day' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ content: oversized, tags: ['long day'] });
  });

  it('saves it shorter, even while still over the limit', async () => {
    const shorter = oversized.slice(0, 15_000).trim();
    const res = await patch({ content: shorter });
    expect(res.statusCode).toBe(200);
    expect(res.json().content).toBe(shorter);
  });

  it('refuses to make it longer, and keeps what was saved', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/entries', headers: alice.headers })).json().entries[0].content as string;
    const res = await patch({ content: `${before} more` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(messages.entries.contentTooLong);
    const after = (await t.app.inject({ method: 'GET', url: '/api/entries', headers: alice.headers })).json().entries[0].content;
    expect(after).toBe(before);
  });

  it('still holds an ordinary entry to the limit', async () => {
    const entry = await createEntry(t, alice, { content: 'a'.repeat(ENTRY_CONTENT_MAX) });
    const res = await t.app.inject({ method: 'PATCH', url: `/api/entries/${entry.id}`, headers: alice.headers, payload: { content: 'a'.repeat(ENTRY_CONTENT_MAX + 1) } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(messages.entries.contentTooLong);
  });
});
