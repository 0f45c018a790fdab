import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenedEntryInput, SealedEntry } from '../../shared/vault';
import { vaultMessages } from '../../shared/vault-messages';
import { decryptPhotoBytes } from '../at-rest/photo-files';
import { isVaultFile } from '../crypto/sealed-box';
import { ownerSalt } from '../journal/owner';
import { buildTestApp, type TestApp } from '../test/app';
import { testAudio } from '../test/audio';
import { FAKE_TRANSCRIBE_KEY, startFakeTranscriber, type FakeTranscriber } from '../test/fake-transcriber';
import { createEntry, journalUser, listEntries, type JournalTestUser } from '../test/journal';
import { browserKeys, openSealedEntry, sealJournal, turnOn, vaultRequest } from '../test/vault';
import { storageCanRead } from '../test/vault-zero-access';
import { addRecording, markNotTranscribed, readRecordingAudio } from '../voice/recordings';
import { findRecording } from '../voice/repo';

// Turning the vault off carries voice recordings too: the browser opens each one's audio and
// transcript, and the server keeps them under its own key again, in the entry's own change. After
// it the server plays, searches and transcribes them as any other journal's.

const errors = vaultMessages.errors;

describe("turning the vault off: a vault user's voice recordings", () => {
  let t: TestApp;
  let fake: FakeTranscriber;
  /** Real audio of each kind a journal holds: an iPhone memo, a browser's recording, a call, an Ogg note. */
  let audio: { memo: Buffer; untranscribed: Buffer; call: Buffer; note: Buffer };
  beforeAll(async () => {
    audio = { memo: await testAudio('m4a', 2), untranscribed: await testAudio('webm', 1), call: await testAudio('wav-mulaw', 1), note: await testAudio('ogg-opus', 1) };
    fake = await startFakeTranscriber();
    t = await buildTestApp({ TRANSCRIBE_URL: fake.url, TRANSCRIBE_API_KEY: FAKE_TRANSCRIBE_KEY });
    t.clock.set(new Date('2026-11-20T15:00:00Z'));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const served = (url: string) => t.app.inject({ method: 'GET', url });
  const sealedBatch = async (user: JournalTestUser): Promise<SealedEntry[]> => {
    const res = await vaultRequest(t, user, 'GET', '/api/vault/sealed');
    expect(res.statusCode).toBe(200);
    return res.json().entries;
  };
  const sendOpened = (user: JournalTestUser, entries: OpenedEntryInput[]) => vaultRequest(t, user, 'POST', '/api/vault/opened', { entries });
  const entryOf = async (user: JournalTestUser, id: string) => (await listEntries(t, user, '?limit=100')).entries.find((e) => e.id === id)!;
  const storedFile = (path: string) => join(t.app.ctx.config.storageUrl, path);
  const filesOf = (user: JournalTestUser) => readdirSync(join(t.app.ctx.config.storageUrl, user.id), { recursive: true }).map(String).sort();

  /** A journal with a transcribed note and one not transcribed (both before the vault), sealed, then a call while it is on. */
  const vaultWithRecordings = async () => {
    const user = await journalUser(t, { timezone: 'UTC' });
    const keys = await browserKeys();
    const harbour = await createEntry(t, user, { content: 'Harbour morning', entry_date: '2026-11-19' });
    const memo = await addRecording(t.app.ctx, user.id, { audio: audio.memo, origin: 'web', receivedAt: t.clock.now(), entryId: harbour.id, transcript: 'Gulls over the harbour wall' });
    const untranscribed = await addRecording(t.app.ctx, user.id, { audio: audio.untranscribed, origin: 'web', receivedAt: t.clock.now(), entryId: harbour.id });
    await markNotTranscribed(t.app.ctx, untranscribed.recording.id, user.id, 'The service gave up');
    await turnOn(t, user, keys);
    await sealJournal(t, user);
    // A call while the vault is on: its words join the day's phone entry, sealed.
    const call = await addRecording(t.app.ctx, user.id, { audio: audio.call, origin: 'call', receivedAt: t.clock.now(), transcript: 'Kingfisher by the sluice gate', sourceKey: 'call:RE-unseal' });
    return { user, keys, harbour: harbour.id, phoneEntry: call.entryId, ids: { memo: memo.recording.id, untranscribed: untranscribed.recording.id, call: call.recording.id } };
  };

  it('opens each recording back into the journal the server reads: the same audio, its transcript readable and searchable', async () => {
    const { user, keys, harbour, phoneEntry, ids } = await vaultWithRecordings();
    const audioOf = new Map([
      [ids.memo, audio.memo],
      [ids.untranscribed, audio.untranscribed],
      [ids.call, audio.call],
    ]);
    const sealedRows = await Promise.all(Object.values(ids).map(async (id) => (await findRecording(t.app.ctx.db, user.id, id))!));
    for (const row of sealedRows) expect(isVaultFile(readFileSync(storedFile(row.file_path)))).toBe(true);

    expect((await vaultRequest(t, user, 'POST', '/api/vault/unseal')).statusCode).toBe(200);
    const batch = await sealedBatch(user);
    expect(batch.map((e) => [e.id, e.recordings.map((r) => r.id)]).sort()).toEqual(
      [
        [harbour, [ids.memo, ids.untranscribed]],
        [phoneEntry, [ids.call]],
      ].sort(),
    );
    const memoSealed = batch.find((e) => e.id === harbour)!.recordings[0]!;
    expect(memoSealed.mime_type).toBe('audio/mp4');
    expect(JSON.parse(keys.open(memoSealed.transcript!))).toEqual({ transcript: 'Gulls over the harbour wall' });

    const res = await sendOpened(user, await Promise.all(batch.map((e) => openSealedEntry(t, keys, e))));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().opened.sort()).toEqual([harbour, phoneEntry].sort());
    expect((await vaultRequest(t, user, 'DELETE', '/api/vault')).statusCode).toBe(204);

    // The journal as the server reads it: transcripts readable, nothing sealed.
    const spoken = (await entryOf(user, harbour)).recordings!;
    expect(spoken.map(({ id, mime_type, transcript, transcript_status }) => ({ id, mime_type, transcript, transcript_status }))).toEqual([
      { id: ids.memo, mime_type: 'audio/mp4', transcript: 'Gulls over the harbour wall', transcript_status: 'done' },
      { id: ids.untranscribed, mime_type: 'audio/webm', transcript: null, transcript_status: 'failed' },
    ]);
    const phone = await entryOf(user, phoneEntry);
    expect(phone.content).toBe('Kingfisher by the sluice gate');
    expect(phone.recordings).toEqual([expect.objectContaining({ id: ids.call, transcript: 'Kingfisher by the sluice gate', transcript_status: 'done' })]);
    for (const recording of [...spoken, ...phone.recordings!]) expect(recording).not.toHaveProperty('sealed');
    // Searchable by the words said.
    expect((await listEntries(t, user, '?q=kingfisher')).entries.map((e) => e.id)).toEqual([phoneEntry]);
    expect((await listEntries(t, user, '?q=gulls')).entries.map((e) => e.id)).toEqual([harbour]);

    // The media link plays the audio itself, as its type.
    const played = await served(spoken[0]!.url);
    expect(played.statusCode).toBe(200);
    expect(played.headers['content-type']).toBe('audio/mp4');
    expect(played.rawPayload.equals(audio.memo)).toBe(true);
    expect((await served(spoken[1]!.url)).rawPayload.equals(audio.untranscribed)).toBe(true);
    expect((await served(phone.recordings![0]!.url)).rawPayload.equals(audio.call)).toBe(true);

    // Stored under the server's key in new files; the sealed ones are gone.
    const salt = await ownerSalt(t.app.ctx, user.id);
    for (const before of sealedRows) {
      const row = (await findRecording(t.app.ctx.db, user.id, before.id))!;
      expect(row.sealed).toBe(0);
      expect(row.file_path).not.toBe(before.file_path);
      expect(existsSync(storedFile(before.file_path))).toBe(false);
      const stored = readFileSync(storedFile(row.file_path));
      expect(isVaultFile(stored)).toBe(false);
      expect(decryptPhotoBytes(t.app.ctx, user.id, salt, stored).equals(stored)).toBe(false);
      expect((await readRecordingAudio(t.app.ctx, row)).equals(audioOf.get(row.id)!)).toBe(true);
    }
    expect(await storageCanRead(t.app.ctx, user.id, audio.memo)).toBe(true);
    expect(await t.app.ctx.db.selectFrom('vault_stale_files').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);

    // The one not transcribed can be transcribed again now that the server can hear it.
    const again = await t.app.inject({ method: 'POST', url: `/api/entries/${harbour}/recordings/${ids.untranscribed}/transcribe`, headers: user.headers });
    expect(again.statusCode, again.body).toBe(202);
    expect((await findRecording(t.app.ctx.db, user.id, ids.untranscribed))!.transcript_status).toBe('pending');
  });

  it('skips an entry whose recordings changed since the browser opened it, and hands it out again with them', async () => {
    const { user, keys, harbour } = await vaultWithRecordings();
    await vaultRequest(t, user, 'POST', '/api/vault/unseal');
    const sealed = (await sealedBatch(user)).find((e) => e.id === harbour)!;
    const opened = await openSealedEntry(t, keys, sealed);
    // A voice note added from the web meanwhile (no words: the entry's text is as it was).
    const added = await addRecording(t.app.ctx, user.id, { audio: audio.note, origin: 'web', receivedAt: t.clock.now(), entryId: harbour, transcript: '' });

    expect((await sendOpened(user, [opened])).json()).toEqual({ opened: [], skipped: [harbour] });
    const again = (await sealedBatch(user)).find((e) => e.id === harbour)!;
    expect(again.recordings.map((r) => r.id)).toEqual([...sealed.recordings.map((r) => r.id), added.recording.id]);
    expect((await sendOpened(user, [await openSealedEntry(t, keys, again)])).json()).toEqual({ opened: [harbour], skipped: [] });
    const spoken = (await entryOf(user, harbour)).recordings!;
    expect(spoken.map((r) => r.id)).toEqual(again.recordings.map((r) => r.id));
    expect(spoken.every((r) => r.sealed === undefined)).toBe(true);
  });

  it('refuses an opened recording that is not audio, and leaves the entry sealed with no file written', async () => {
    const { user, keys, harbour } = await vaultWithRecordings();
    await vaultRequest(t, user, 'POST', '/api/vault/unseal');
    const opened = await openSealedEntry(t, keys, (await sealedBatch(user)).find((e) => e.id === harbour)!);
    const files = filesOf(user);

    const garbled = { ...opened, recordings: [opened.recordings[0]!, { ...opened.recordings[1]!, audio: Buffer.from('not a voice note').toString('base64') }] };
    const res = await sendOpened(user, [garbled]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(errors.recordingInvalid);
    expect(filesOf(user)).toEqual(files);
    const again = (await sealedBatch(user)).find((e) => e.id === harbour)!;
    expect(again.recordings).toHaveLength(2);
    expect((await openSealedEntry(t, keys, again)).recordings).toEqual(opened.recordings);
  });

  it('takes opened recordings only while the vault is being turned off', async () => {
    const { user, keys } = await vaultWithRecordings();
    await vaultRequest(t, user, 'POST', '/api/vault/unseal');
    const [entry] = await sealedBatch(user);
    const opened = await openSealedEntry(t, keys, entry!);
    await sealJournal(t, user);
    const res = await sendOpened(user, [opened]);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(errors.notTurningOff);
    expect((await findRecording(t.app.ctx.db, user.id, opened.recordings[0]!.id))!.sealed).toBe(1);
  });
});
