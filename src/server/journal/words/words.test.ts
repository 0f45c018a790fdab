import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_CONTENT_MAX } from '../../../shared/journal';
import { decryptPhotoBytes } from '../../at-rest/photo-files';
import type { JournalEntryRow, JournalSmsUndoTable } from '../../db/tables';
import { newId } from '../../ids';
import { buildTestApp, type TestApp } from '../../test/app';
import { journalUser, type JournalTestUser } from '../../test/journal';
import { browserKeys, sealedWrite, sealJournal, turnOn, vaultRequest, type BrowserKeys } from '../../test/vault';
import { changeJournal } from '../changes';
import { decryptEntry } from '../entry-cipher';
import { ownerSalt } from '../owner';
import * as repo from '../repo';
import { appendSmsToDayEntry } from '../sms-entries';
import { JournalWords, type EntryCodec, type UndoMark } from '.';

// The journal's words codec on its own: what each kind writes, and what it never does.
describe('a journal’s words codec', () => {
  let t: TestApp;
  /** Without a vault: words under the server's key. */
  let alice: JournalTestUser;
  /** With a vault that is on: words sealed to its public key. */
  let bob: JournalTestUser;
  let keys: BrowserKeys;
  const at = new Date('2026-11-23T15:00:00Z');

  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(at);
    alice = await journalUser(t);
    bob = await journalUser(t);
    keys = await browserKeys();
    await turnOn(t, bob, keys);
    await sealJournal(t, bob);
  });
  afterAll(() => t.close());

  const ctx = () => t.app.ctx;
  const words = (user: JournalTestUser) => JournalWords.read(ctx(), ctx().db, user.id);
  const row = async (user: JournalTestUser, id: string) => (await repo.findEntry(ctx().db, user.id, id))!;
  const segments = (entry: JournalEntryRow) => JSON.parse(entry.sealed!) as string[];
  const readable = async (user: JournalTestUser, entry: JournalEntryRow) => decryptEntry(ctx(), await ownerSalt(ctx(), user.id), entry).content;

  /** A web entry written with the codec `pick` hands out, in a change of its own. */
  async function newEntry(user: JournalTestUser, text: string, pick = (w: JournalWords): EntryCodec => w.forNewEntry()): Promise<JournalEntryRow> {
    const id = newId();
    await changeJournal(ctx(), user.id, async (trx, _revision, w) => {
      const { row: stored } = await pick(w).newEntry({ text, at }, 'web');
      await repo.insertEntry(trx, { id, user_id: user.id, ...stored, source: 'web', entry_date: '2026-11-23', created_at: at.toISOString(), updated_at: at.toISOString() });
      return { entryId: id };
    });
    return row(user, id);
  }

  /** `text` appended to the entry by its codec, in a change of its own; answers UNDO's mark. */
  async function append(user: JournalTestUser, entry: JournalEntryRow, text: string): Promise<UndoMark> {
    const { undo } = await changeJournal(ctx(), user.id, async (trx, _revision, w) => {
      const worked = await w.forEntry(entry).append(entry, { text, at });
      return { entryId: entry.id, undo: await worked.write(trx, at.toISOString()) };
    });
    return undo;
  }

  /** UNDO of a text with that mark, as the entry is now: false when the codec finds it changed since. */
  async function takeBack(user: JournalTestUser, entryId: string, mark: UndoMark): Promise<boolean> {
    const record: JournalSmsUndoTable = { ...mark, message_id: newId(), user_id: user.id, received_on: '2026-11-23', entry_id: entryId, created_entry_ids: '[]', photo_ids: '[]', applied_at: at.toISOString(), revision: 1, undone_at: null, undone_by: null };
    const { done } = await changeJournal(ctx(), user.id, async (trx, _revision, w) => {
      const entry = (await repo.findEntry(trx, user.id, entryId))!;
      const back = w.forEntry(entry).takeBack(entry, record);
      if (back) await back.write(trx, at.toISOString());
      return { entryId, done: back !== undefined };
    });
    return done;
  }

  it('writes a new entry of a vault journal as one sealed segment, with nothing readable in its row', async () => {
    const sealed = await newEntry(bob, 'Heron on the marsh at dawn');
    expect(sealed).toMatchObject({ content: '', title: null, tags: '[]', word_count: 6 });
    expect(segments(sealed).map((s) => keys.openSegment(s))).toEqual([{ text: 'Heron on the marsh at dawn', at: at.toISOString(), source: 'web' }]);
    expect(JSON.stringify(sealed)).not.toContain('Heron');

    const plain = await newEntry(alice, 'Heron on the marsh at dawn');
    expect(plain).toMatchObject({ sealed: null, word_count: 6 });
    expect(plain.content).not.toContain('Heron');
    expect(await readable(alice, plain)).toBe('Heron on the marsh at dawn');
  });

  it('keeps new entries readable while the vault is turned off, except words sealed on arrival and a sealed day’s next part', async () => {
    const carol = await journalUser(t);
    const carolKeys = await browserKeys();
    await turnOn(t, carol, carolKeys);
    await sealJournal(t, carol);
    const sealedPart = await newEntry(carol, 'Sealed while on');
    expect((await vaultRequest(t, carol, 'POST', '/api/vault/unseal')).statusCode).toBe(200);

    expect((await newEntry(carol, 'Readable again')).sealed).toBeNull();
    // A text the webhook sealed on arrival, just before the vault began to be turned off.
    const box = { box: await sealedWrite(carolKeys, { text: 'Texted as it was turned off', at: at.toISOString(), source: 'sms' }), words: 6, length: 27, yesterday: false };
    const arrived = await changeJournal(ctx(), carol.id, async (trx, _revision, w) => {
      const { row: stored } = await w.forNewEntry(true).newEntry(box, 'sms');
      return { entryId: '', stored };
    });
    expect(JSON.parse(arrived.stored.sealed!)).toEqual([box.box]);
    expect((await newEntry(carol, 'Next part', (w) => w.forContinuation(sealedPart))).sealed).not.toBeNull();
    const next = await newEntry(carol, 'Next part', (w) => w.forContinuation({ sealed: null }));
    expect(next.sealed).toBeNull();
  });

  it('appends to a sealed entry without reading it: its segments stay as they were, the words go on as one more', async () => {
    // Segments no key could open (random bytes): an append that read them would fail.
    const opaque = [randomBytes(120).toString('base64'), randomBytes(90).toString('base64')];
    const id = newId();
    await changeJournal(ctx(), bob.id, async (trx) => {
      await repo.insertEntry(trx, { id, user_id: bob.id, content: '', title: null, tags: '[]', sealed: JSON.stringify(opaque), source: 'web', entry_date: '2026-11-23', word_count: 30, created_at: at.toISOString(), updated_at: at.toISOString() });
      return { entryId: id };
    });
    const mark = await append(bob, await row(bob, id), 'Later by the river');
    const after = await row(bob, id);
    expect(segments(after).slice(0, 2)).toEqual(opaque);
    expect(keys.openSegment(segments(after)[2]!)).toEqual({ text: 'Later by the river', at: at.toISOString(), source: 'web' });
    expect(after.word_count).toBe(34);
    expect(mark).toMatchObject({ length_before: 2, words_before: 30 });

    // UNDO's mark takes the segment back out by position, again without reading any.
    expect(await takeBack(bob, id, mark)).toBe(true);
    expect(await row(bob, id)).toMatchObject({ sealed: JSON.stringify(opaque), word_count: 30 });
  });

  it('appends to a readable entry after a blank line, and UNDO takes back only an unchanged one', async () => {
    const entry = await newEntry(alice, 'Morning');
    const mark = await append(alice, entry, 'Evening swim');
    expect(await readable(alice, await row(alice, entry.id))).toBe('Morning\n\nEvening swim');
    expect(mark).toMatchObject({ length_before: 'Morning'.length, words_before: null });
    expect(await takeBack(alice, entry.id, mark)).toBe(true);
    expect(await row(alice, entry.id)).toMatchObject({ word_count: 1 });
    expect(await readable(alice, await row(alice, entry.id))).toBe('Morning');

    const edited = await append(alice, await row(alice, entry.id), 'Night');
    await append(alice, await row(alice, entry.id), 'and more');
    expect(await takeBack(alice, entry.id, edited)).toBe(false);
    expect(await readable(alice, await row(alice, entry.id))).toBe('Morning\n\nNight\n\nand more');
  });

  it('finds that an append crossing the length limit does not fit, and a text crossing it starts a continuation, in both kinds', async () => {
    const first = 'x'.repeat(ENTRY_CONTENT_MAX - 10);
    for (const user of [alice, bob]) {
      const entry = await newEntry(user, first);
      const fits = async (text: string) => (await (await words(user)).forEntry(entry).append(entry, { text, at })).fits;
      // A blank line, then the words: exactly the limit fits (a sealed entry's length is bounded by its sealed size).
      expect(await fits('y'.repeat(8))).toBe(true);
      expect(await fits('y'.repeat(9))).toBe(false);
      // A transcript past the limit stays only on its recording, sealed entry or not (an entry opened
      // again when the vault is turned off must be within the limit).
      const added = await changeJournal(ctx(), user.id, async (trx, _revision, w) => ({ entryId: entry.id, added: await w.forEntry(entry).appendIfRoom(trx, entry, { text: 'y'.repeat(9), at }, at.toISOString()) }));
      expect(added.added).toBe(false);
      const after = await row(user, entry.id);
      expect([after.content, after.sealed, after.word_count]).toEqual([entry.content, entry.sealed, entry.word_count]);
    }
    for (const user of [alice, bob]) {
      const receivedAt = new Date('2026-11-24T15:00:00Z');
      await appendSmsToDayEntry(ctx(), { userId: user.id, messageId: newId(), text: first, receivedAt, media: [] });
      const second = await appendSmsToDayEntry(ctx(), { userId: user.id, messageId: newId(), text: 'y'.repeat(9), receivedAt, media: [] });
      expect(second.startedEntry).toBe(true);
      const parts = await ctx().db.selectFrom('journal_entries').selectAll().where('user_id', '=', user.id).where('entry_date', '=', '2026-11-24').orderBy('sms_part').execute();
      expect(parts.map((p) => [p.sms_part, p.sealed === null])).toEqual([
        [0, user === alice],
        [1, user === alice],
      ]);
    }
  });

  it('keeps photos and recordings as the entry’s words are kept', async () => {
    const files = { full: Buffer.from('the full image'), thumb: Buffer.from('its thumbnail'), fileName: 'heron.jpg' };
    const sealedCodec = (await words(bob)).forNewEntry();
    const sealed = await sealedCodec.photo(files);
    expect([keys.openFile(sealed.full).toString(), keys.openFile(sealed.thumb).toString(), keys.open(sealed.fileName)]).toEqual(['the full image', 'its thumbnail', 'heron.jpg']);
    expect(keys.openFile(await sealedCodec.audio(Buffer.from('the audio'))).toString()).toBe('the audio');
    expect(JSON.parse(keys.open((await sealedCodec.transcript(null))!))).toEqual({ transcript: null });

    const salt = await ownerSalt(ctx(), alice.id);
    const plainCodec = (await words(alice)).forNewEntry();
    const encrypted = await plainCodec.photo(files);
    expect(encrypted.full.includes('the full image')).toBe(false);
    expect(decryptPhotoBytes(ctx(), alice.id, salt, encrypted.full).toString()).toBe('the full image');
    expect(ctx().cipher.decrypt(alice.id, salt, encrypted.fileName)).toBe('heron.jpg');
    expect(decryptPhotoBytes(ctx(), alice.id, salt, await plainCodec.audio(Buffer.from('the audio'))).toString()).toBe('the audio');
    expect(await plainCodec.transcript(null)).toBeNull();
    expect(ctx().cipher.decrypt(alice.id, salt, (await plainCodec.transcript('Hello'))!)).toBe('Hello');
  });
});

