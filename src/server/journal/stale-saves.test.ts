import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { bearer, buildUser, signIn } from '../test/factories';
import { buildSmsTestApp, textJournal, type SmsTestApp } from '../test/sms';

// A save made from what the editor showed never overwrites what arrived since: a text, or another
// tab's save. And a new entry saved twice (a double click, a retry) is one entry.

describe('saves based on an older version of an entry', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());

  async function texter() {
    const user = await buildUser(t);
    const headers = bearer(await signIn(t, user));
    const journal = async (): Promise<JournalEntry[]> => (await t.app.inject({ method: 'GET', url: '/api/entries', headers })).json().entries;
    const patch = (id: string, payload: object) => t.app.inject({ method: 'PATCH', url: `/api/entries/${id}`, headers, payload });
    return { user, headers, journal, patch };
  }

  it('refuses an edit read before a text arrived, writes nothing, and answers the entry with the text', async () => {
    const { user, journal, patch } = await texter();
    await textJournal(t, user.phone, 'Morning run.');
    const [opened] = await journal(); // the editor opens here
    await textJournal(t, user.phone, 'Dinner at Greektown with Sam.'); // a text arrives meanwhile
    const save = await patch(opened!.id, { content: 'Morning run by the lake.', base_version: opened!.version });

    expect(save.statusCode).toBe(409);
    const body = save.json();
    expect(body.error).toEqual({ code: 'ENTRY_CHANGED', message: messages.entries.entryChanged });
    expect(body.entry).toMatchObject({ id: opened!.id, content: 'Morning run.\n\nDinner at Greektown with Sam.' });
    expect(body.entry.version).not.toBe(opened!.version);
    const [now] = await journal();
    expect(now).toMatchObject({ content: 'Morning run.\n\nDinner at Greektown with Sam.', version: body.entry.version });
    const found = (await t.app.inject({ method: 'GET', url: '/api/entries?q=Greektown', headers: (await texter()).headers })).json();
    expect(found.entries).toEqual([]); // search is scoped to its owner: another user finds nothing

    // Saved again from the entry as it is now (the editor offers the edit with the new text after it).
    const again = await patch(opened!.id, { content: 'Morning run by the lake.\n\nDinner at Greektown with Sam.', base_version: body.entry.version });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ content: 'Morning run by the lake.\n\nDinner at Greektown with Sam.' });
    expect(again.json().version).not.toBe(body.entry.version);
  });

  it("refuses a stale tab's save after another tab saved", async () => {
    const { user, journal, patch } = await texter();
    await textJournal(t, user.phone, 'Rain all day.');
    const [seen] = await journal(); // both tabs show this
    const first = await patch(seen!.id, { title: 'Rain', base_version: seen!.version });
    expect(first.statusCode).toBe(200);
    const stale = await patch(seen!.id, { content: 'Sun all day.', base_version: seen!.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().entry).toMatchObject({ title: 'Rain', content: 'Rain all day.', version: first.json().version });
    expect((await journal())[0]).toMatchObject({ title: 'Rain', content: 'Rain all day.' });
  });

  it('raises the version with every write, texts and edits alike', async () => {
    const { user, journal, patch } = await texter();
    await textJournal(t, user.phone, 'One.');
    const versions = [(await journal())[0]!.version];
    await textJournal(t, user.phone, 'Two.');
    versions.push((await journal())[0]!.version);
    versions.push((await patch((await journal())[0]!.id, { tags: 'numbers' })).json().version);
    expect(new Set(versions).size).toBe(3);
  });

  it('applies an edit that names no version to the entry as it is (API clients)', async () => {
    const { user, journal, patch } = await texter();
    await textJournal(t, user.phone, 'Plain.');
    const [entry] = await journal();
    await textJournal(t, user.phone, 'Later.');
    expect((await patch(entry!.id, { title: 'Titled' })).statusCode).toBe(200);
    expect((await journal())[0]).toMatchObject({ title: 'Titled', content: 'Plain.\n\nLater.' });
  });

  it('answers 404, not 409, for a stale save of an entry that is not yours', async () => {
    const owner = await texter();
    await textJournal(t, owner.user.phone, 'Mine.');
    const [entry] = await owner.journal();
    const other = await texter();
    const res = await other.patch(entry!.id, { content: 'Yours?', base_version: entry!.version - 1 });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Mine.');
  });
});

describe('a new entry saved twice with one Idempotency-Key', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());

  it('makes one entry: a double click, sent at once, answers the same entry twice', async () => {
    const headers = bearer(await signIn(t, await buildUser(t)));
    const post = (key: string) => t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...headers, 'idempotency-key': key }, payload: { content: 'Saved once.' } });
    const [a, b] = await Promise.all([post('dialog-1'), post('dialog-1')]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.json().id).toBe(a.json().id);
    const again = await post('dialog-1'); // a retry after a lost answer
    expect(again.json().id).toBe(a.json().id);
    const other = await post('dialog-2'); // the next dialog
    expect(other.json().id).not.toBe(a.json().id);
    const { entries } = (await t.app.inject({ method: 'GET', url: '/api/entries', headers })).json();
    expect(entries.map((e: JournalEntry) => e.content)).toEqual(['Saved once.', 'Saved once.']);
  });

  it('keeps a key 24 hours, and for its owner only', async () => {
    const start = new Date('2026-05-10T12:00:00Z');
    t.clock.set(start);
    const aliceUser = await buildUser(t);
    const alice = bearer(await signIn(t, aliceUser));
    const bob = bearer(await signIn(t, await buildUser(t)));
    const post = (headers: object, content: string) =>
      t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...headers, 'idempotency-key': 'same-key' }, payload: { content } });
    const first = (await post(alice, 'Alice writes.')).json();
    const bobs = await post(bob, 'Bob writes.');
    expect(bobs.json()).toMatchObject({ content: 'Bob writes.' });
    expect(bobs.json().id).not.toBe(first.id);
    // A session lasts an hour: sign in again at each later time.
    t.clock.set(new Date(start.getTime() + 23 * 3600_000));
    expect((await post(bearer(await signIn(t, aliceUser)), 'Alice writes.')).json().id).toBe(first.id);
    t.clock.set(new Date(start.getTime() + 25 * 3600_000));
    const later = await post(bearer(await signIn(t, aliceUser)), 'Alice writes again.');
    expect(later.statusCode).toBe(201);
    expect(later.json()).toMatchObject({ content: 'Alice writes again.' });
    expect(later.json().id).not.toBe(first.id);
  });

  it('makes a new entry when the first one was deleted', async () => {
    const headers = bearer(await signIn(t, await buildUser(t)));
    const post = () => t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...headers, 'idempotency-key': 'k' }, payload: { content: 'Again.' } });
    const first = (await post()).json();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/entries/${first.id}`, headers })).statusCode).toBe(204);
    const second = await post();
    expect(second.statusCode).toBe(201);
    expect(second.json().id).not.toBe(first.id);
  });

  it('refuses a key that is too long or not visible characters', async () => {
    const headers = bearer(await signIn(t, await buildUser(t)));
    for (const key of ['x'.repeat(201), 'has space']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...headers, 'idempotency-key': key }, payload: { content: 'x' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(messages.entries.idempotencyKeyInvalid);
    }
  });
});
