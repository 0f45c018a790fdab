import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntryRecording, JournalEntry } from '../../shared/journal';
import { voiceMessages } from '../../shared/voice-messages';
import { decryptPhotoBytes, readPhotoFile } from '../at-rest/photo-files';
import { isVaultFile } from '../crypto/sealed-box';
import { AppError } from '../errors';
import { ownerSalt } from '../journal/owner';
import { buildTestApp, type TestApp } from '../test/app';
import { testAudio } from '../test/audio';
import { FAKE_TRANSCRIBE_KEY, startFakeTranscriber, type FakeTranscriber } from '../test/fake-transcriber';
import { journalUser, listEntries, multipart, type JournalTestUser } from '../test/journal';
import { browserKeys, sealJournal, turnOn, type BrowserKeys } from '../test/vault';
import { addRecording, readRecordingAudio } from './recordings';
import { heardInMemory } from './transcription/in-memory';
import { leaseMs, processTranscriptions } from './transcription/job';
import { findRecording } from './repo';

// A vault user's voice note is sealed to the vault's public key in the step that writes it, and
// heard once from the bytes still in memory; its transcript is sealed in the step that records it. What the server keeps (the file
// in storage, the rows) opens with none of its keys; the browser's private key opens all of it.

describe("a vault user's voice notes", () => {
  let t: TestApp;
  let fake: FakeTranscriber;
  let alice: JournalTestUser;
  let keys: BrowserKeys;
  beforeAll(async () => {
    fake = await startFakeTranscriber();
    t = await buildTestApp({ TRANSCRIBE_URL: fake.url, TRANSCRIBE_API_KEY: FAKE_TRANSCRIBE_KEY });
    t.clock.set(new Date('2026-11-20T15:00:00Z'));
    alice = await journalUser(t);
    keys = await browserKeys();
    await turnOn(t, alice, keys);
    await sealJournal(t, alice);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const entryOf = async (entryId: string): Promise<JournalEntry> => (await listEntries(t, alice)).entries.find((e) => e.id === entryId)!;

  it('seals a call recording and its transcript; neither opens with the server’s keys', async () => {
    const words = 'Secret plans for the garden, said aloud';
    fake.answerNext(words);
    const audio = await testAudio('wav-mulaw', 2);
    const receivedAt = t.clock.now();
    const added = await addRecording(t.app.ctx, alice.id, { audio, origin: 'call', receivedAt, sourceKey: 'call:RE-vault' });
    // Stored sealed at once; heard from the bytes still in memory once the change has answered.
    expect(added.recording).toMatchObject({ transcript: null, transcript_status: 'pending' });
    expect(JSON.parse(keys.open(added.recording.sealed!))).toEqual({ transcript: null });
    // Heard a few minutes later, on a busy day.
    t.clock.set(new Date(receivedAt.getTime() + 5 * 60_000));
    await heardInMemory(t.app.ctx);
    expect(fake.requests).toHaveLength(1);
    const { entryId } = added;
    const recording = (await entryOf(entryId)).recordings![0]!;
    expect(recording).toMatchObject({ id: added.recording.id, transcript: null, transcript_status: 'done' });
    expect(JSON.parse(keys.open(recording.sealed!))).toEqual({ transcript: words });

    // The entry is sealed, its words a segment only the browser opens.
    const entry = (await entryOf(entryId)) as JournalEntry & { sealed?: string[] };
    expect(entry.content).toBeNull();
    // Dated by when the call came in, not when it was heard.
    expect(entry.sealed!.map((s) => keys.openSegment(s))).toEqual([expect.objectContaining({ text: words, at: receivedAt.toISOString() })]);
    expect(entry.recordings).toEqual([recording]);

    // The link serves the sealed bytes; the browser opens them to the audio.
    const served = await t.app.inject({ method: 'GET', url: recording.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(keys.openFile(served.rawPayload).equals(audio)).toBe(true);

    // The attacker's view: the stored file and the rows, with the master key and the owner's salt.
    const ctx = t.app.ctx;
    const row = (await findRecording(ctx.db, alice.id, recording.id))!;
    const stored = readFileSync(join(ctx.config.storageUrl, row.file_path));
    expect(isVaultFile(stored)).toBe(true);
    expect(stored.includes(audio.subarray(100, 164))).toBe(false);
    const salt = await ownerSalt(ctx, alice.id);
    // The owner's key does not open it: it is not one of its files.
    expect(decryptPhotoBytes(ctx, alice.id, salt, stored).equals(stored)).toBe(true);
    expect((await readPhotoFile(ctx, row.file_path))!.bytes.equals(stored)).toBe(true);
    expect(row.transcript).not.toMatch(/^ENC:/);
    expect(ctx.cipher.decrypt(alice.id, salt, row.transcript!)).toBe(row.transcript);
    const rows = JSON.stringify([row, await ctx.db.selectFrom('journal_entries').selectAll().where('user_id', '=', alice.id).execute()]);
    expect(rows).not.toContain('garden');
    if (ctx.dbKind === 'sqlite') {
      const file = ctx.config.databaseUrl.slice('sqlite:'.length);
      const raw = readFileSync(file).toString('latin1') + (() => {
        try {
          return readFileSync(`${file}-wal`).toString('latin1');
        } catch {
          return '';
        }
      })();
      expect(raw).not.toContain('Secret plans');
    }
    // The server cannot read it again, so it cannot transcribe it again.
    await expect(readRecordingAudio(ctx, row)).rejects.toBeInstanceOf(AppError);
    const again = await t.app.inject({ method: 'POST', url: `/api/entries/${entryId}/recordings/${recording.id}/transcribe`, headers: alice.headers });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(voiceMessages.errors.sealedAudio);
  });

  it('keeps a web voice note sealed and "not transcribed" when its one try fails', async () => {
    const first = await addRecording(t.app.ctx, alice.id, { audio: await testAudio('ogg-opus', 1), origin: 'call', receivedAt: t.clock.now(), transcript: 'First words.' });
    fake.failNext({ status: 500 });
    const form = await multipart({}, [{ name: 'memo.webm', bytes: await testAudio('webm', 2), type: 'audio/webm' }], 'file');
    const res = await t.app.inject({ method: 'POST', url: `/api/entries/${first.entryId}/recordings`, headers: { ...alice.headers, ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(201);
    expect((res.json() as { recording: EntryRecording }).recording).toMatchObject({ transcript_status: 'pending', mime_type: 'audio/webm' });
    await heardInMemory(t.app.ctx);
    const recording = (await entryOf(first.entryId)).recordings!.find((r) => r.id === (res.json() as { recording: EntryRecording }).recording.id)!;
    expect(recording).toMatchObject({ transcript: null, transcript_status: 'failed', mime_type: 'audio/webm' });
    expect(JSON.parse(keys.open(recording.sealed!))).toEqual({ transcript: null });
    const row = (await findRecording(t.app.ctx.db, alice.id, recording.id))!;
    expect(row.sealed).toBe(1);
    const served = await t.app.inject({ method: 'GET', url: recording.url });
    expect(isVaultFile(served.rawPayload)).toBe(true);
  });

  it('seals the recordings a journal already had when its vault is turned on: audio, transcript, and the old file gone', async () => {
    const bob = await journalUser(t);
    const audio = await testAudio('mp3', 2);
    const before = await addRecording(t.app.ctx, bob.id, { audio, origin: 'call', receivedAt: t.clock.now(), transcript: 'Before the vault.' });
    const readableKey = (await findRecording(t.app.ctx.db, bob.id, before.recording.id))!.file_path;
    expect(existsSync(join(t.app.ctx.config.storageUrl, readableKey))).toBe(true);
    const bobKeys = await browserKeys();
    await turnOn(t, bob, bobKeys);
    await sealJournal(t, bob);

    const row = (await findRecording(t.app.ctx.db, bob.id, before.recording.id))!;
    expect(row.sealed).toBe(1);
    expect(row.file_path).not.toBe(readableKey);
    expect(existsSync(join(t.app.ctx.config.storageUrl, readableKey))).toBe(false);
    const entry = (await listEntries(t, bob)).entries.find((e) => e.id === before.entryId)!;
    const [recording] = entry.recordings!;
    expect(recording).toMatchObject({ id: before.recording.id, transcript: null, transcript_status: 'done' });
    expect(JSON.parse(bobKeys.open(recording!.sealed!))).toEqual({ transcript: 'Before the vault.' });
    const served = await t.app.inject({ method: 'GET', url: recording!.url });
    expect(bobKeys.openFile(served.rawPayload).equals(audio)).toBe(true);
  });

  it('keeps a note "not transcribed" when the instance holding it stopped before its try, and not before its claim ran out', async () => {
    const ctx = t.app.ctx;
    fake.answerNext('Heard after all');
    const { recording } = await addRecording(ctx, alice.id, { audio: await testAudio('wav-mulaw', 1), origin: 'call', receivedAt: t.clock.now() });
    await heardInMemory(ctx);
    // What an instance that stopped with the note in memory leaves: pending, under its claim.
    const claimedAt = t.clock.now().toISOString();
    await ctx.db.updateTable('journal_recordings').set({ transcript_status: 'pending', transcribe_claimed_at: claimedAt, transcribe_next_at: claimedAt }).where('id', '=', recording.id).execute();
    // (The database may be shared with other test files: only this note's row is looked at.)
    await processTranscriptions(ctx);
    expect((await findRecording(ctx.db, alice.id, recording.id))!).toMatchObject({ transcript_status: 'pending', transcribe_claimed_at: claimedAt });
    t.clock.set(new Date(t.clock.now().getTime() + leaseMs(ctx.config.transcription!) + 1000));
    await processTranscriptions(ctx);
    // Kept without a try: the server cannot hear sealed audio.
    expect((await findRecording(ctx.db, alice.id, recording.id))!).toMatchObject({ transcript_status: 'failed', transcribe_error: 'sealed before it was transcribed' });
  });
});

