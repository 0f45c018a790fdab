import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntryRecording, JournalEntry } from '../../shared/journal';
import { voiceMessages } from '../../shared/voice-messages';
import { isEncryptedPhoto } from '../at-rest/photo-files';
import { buildTestApp, type TestApp } from '../test/app';
import { testAudio } from '../test/audio';
import { createEntry, journalUser, listEntries, multipart, type JournalTestUser } from '../test/journal';
import { addRecording, markNotTranscribed, readRecordingAudio, recordTranscript } from './recordings';
import { findRecording } from './repo';

// Voice notes added on the web and by the other doors (addRecording), read back through the
// journal's API with signed links, and removed with their files.

const upload = async (t: TestApp, user: JournalTestUser, entryId: string, bytes: Buffer, name = 'note.ogg') => {
  const form = await multipart({}, [{ name, bytes, type: 'audio/ogg' }], 'file');
  return t.app.inject({ method: 'POST', url: `/api/entries/${entryId}/recordings`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
};

const entryOf = async (t: TestApp, user: JournalTestUser, entryId: string): Promise<JournalEntry> => {
  const { entries } = await listEntries(t, user);
  const entry = entries.find((e) => e.id === entryId);
  if (!entry) throw new Error('entry not listed');
  return entry;
};

const storedPath = (t: TestApp, key: string) => join(t.app.ctx.config.storageUrl, key);

describe('voice notes without transcription configured', () => {
  let t: TestApp;
  let alice: JournalTestUser;
  let bob: JournalTestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-11-20T15:00:00Z'));
    alice = await journalUser(t);
    bob = await journalUser(t);
  });
  afterAll(() => t.close());

  it('adds an uploaded voice note: 201, listed on its entry with a signed link that serves its bytes', async () => {
    const entry = await createEntry(t, alice, { content: 'A walk by the river' });
    const audio = await testAudio('ogg-opus', 3);
    const res = await upload(t, alice, entry.id, audio, 'river.mp3');
    expect(res.statusCode).toBe(201);
    const { recording } = res.json() as { recording: EntryRecording };
    // The container decides the type, not the name.
    expect(recording).toMatchObject({ mime_type: 'audio/ogg', transcript: null, transcript_status: 'failed' });
    expect(recording.duration_seconds).toBeCloseTo(3, 0);
    expect(recording.url).toMatch(/^\/media\/[^?]+\.ogg\?exp=\d+&sig=[\w-]+&variant=full$/);

    const listed = await entryOf(t, alice, entry.id);
    expect(listed.recordings).toEqual([recording]);
    expect(listed.content).toBe('A walk by the river');

    const served = await t.app.inject({ method: 'GET', url: recording.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('audio/ogg');
    expect(served.rawPayload.equals(audio)).toBe(true);
    // A player seeking asks for a part.
    const part = await t.app.inject({ method: 'GET', url: recording.url, headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${audio.length}`);
    expect(part.rawPayload.equals(audio.subarray(100, 200))).toBe(true);
    // A link with its signature changed serves nothing.
    const tampered = recording.url.replace(/sig=([\w-])/, (_, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`);
    expect(tampered).not.toBe(recording.url);
    expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);

    // Stored encrypted with the owner's key: the file on disk is not the audio.
    const key = decodeURIComponent(recording.url.slice('/media/'.length).split('?')[0]!);
    const { readFileSync } = await import('node:fs');
    const stored = readFileSync(storedPath(t, key));
    expect(isEncryptedPhoto(stored)).toBe(true);
    expect(stored.includes(audio.subarray(200, 264))).toBe(false);
  });

  it('refuses what is not audio, and what is too long, with a clear message', async () => {
    const entry = await createEntry(t, alice, { content: 'refusals' });
    const notAudio = await upload(t, alice, entry.id, Buffer.from('ID3 pretending to be an mp3, but only words.\n'.repeat(10)), 'song.mp3');
    expect(notAudio.statusCode).toBe(400);
    expect(notAudio.json().error.message).toBe(voiceMessages.errors.notAudio);
    const long = await upload(t, alice, entry.id, await testAudio('wav-mulaw', 301), 'call.wav');
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toBe('Voice notes can be up to 5 minutes.');
    const noFile = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/recordings`, headers: alice.headers, payload: {} });
    expect(noFile.statusCode).toBe(400);
    expect((await entryOf(t, alice, entry.id)).recordings).toEqual([]);
  });

  it("keeps another user out: 404 on adding to, deleting from or transcribing alice's entry", async () => {
    const entry = await createEntry(t, alice, { content: 'mine' });
    const { recording } = (await upload(t, alice, entry.id, await testAudio('m4a', 1))).json() as { recording: EntryRecording };
    expect((await upload(t, bob, entry.id, await testAudio('m4a', 1))).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}/recordings/${recording.id}`, headers: bob.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/recordings/${recording.id}/transcribe`, headers: bob.headers })).statusCode).toBe(404);
    // Nor through an entry of bob's own naming alice's recording.
    const bobs = await createEntry(t, bob, { content: 'bob' });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/entries/${bobs.id}/recordings/${recording.id}`, headers: bob.headers })).statusCode).toBe(404);
    expect((await entryOf(t, alice, entry.id)).recordings!.map((r) => r.id)).toEqual([recording.id]);
  });

  it('deletes a voice note (204) and its file; deleting an entry removes its recordings’ files', async () => {
    const entry = await createEntry(t, alice, { content: 'to be removed' });
    const first = ((await upload(t, alice, entry.id, await testAudio('mp3', 1))).json() as { recording: EntryRecording }).recording;
    const second = ((await upload(t, alice, entry.id, await testAudio('webm', 1))).json() as { recording: EntryRecording }).recording;
    expect((await entryOf(t, alice, entry.id)).recordings!.map((r) => r.id)).toEqual([first.id, second.id]);
    const rowOf = async (id: string) => (await findRecording(t.app.ctx.db, alice.id, id))!;
    const firstPath = storedPath(t, (await rowOf(first.id)).file_path);
    const secondPath = storedPath(t, (await rowOf(second.id)).file_path);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}/recordings/${first.id}`, headers: alice.headers });
    expect(del.statusCode).toBe(204);
    expect(existsSync(firstPath)).toBe(false);
    expect((await entryOf(t, alice, entry.id)).recordings!.map((r) => r.id)).toEqual([second.id]);
    expect((await t.app.inject({ method: 'GET', url: first.url })).statusCode).toBe(404);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}`, headers: alice.headers })).statusCode).toBe(204);
    expect(existsSync(secondPath)).toBe(false);
    expect(await findRecording(t.app.ctx.db, alice.id, second.id)).toBeUndefined();
  });

  it('lists only entries with voice notes for ?source=voice', async () => {
    const carol = await journalUser(t);
    const plain = await createEntry(t, carol, { content: 'just words' });
    const spoken = await createEntry(t, carol, { content: 'spoken' });
    expect((await upload(t, carol, spoken.id, await testAudio('aac', 1))).statusCode).toBe(201);
    const voice = await listEntries(t, carol, '?source=voice');
    expect(voice.entries.map((e) => e.id)).toEqual([spoken.id]);
    expect((await listEntries(t, carol)).entries.map((e) => e.id).sort()).toEqual([plain.id, spoken.id].sort());
  });

  it('without a transcription service a recording is "not transcribed", and transcribing again says why', async () => {
    const entry = await createEntry(t, alice, { content: 'later' });
    const { recording } = (await upload(t, alice, entry.id, await testAudio('ogg-vorbis', 1))).json() as { recording: EntryRecording };
    expect(recording.transcript_status).toBe('failed');
    const again = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/recordings/${recording.id}/transcribe`, headers: alice.headers });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(voiceMessages.errors.noTranscription);
  });

  it("attaches a call's recording to the day's phone entry in the user's zone, once however often it arrives", async () => {
    const dave = await journalUser(t, { timezone: 'America/Los_Angeles' });
    // 05:30 UTC on the 21st is still the 20th in Los Angeles.
    const receivedAt = new Date('2026-11-21T05:30:00Z');
    const audio = await testAudio('wav-mulaw', 2);
    const first = await addRecording(t.app.ctx, dave.id, { audio, origin: 'call', receivedAt, sourceKey: 'call:RE0001', transcript: 'Called from the train home.' });
    expect(first.added).toBe(true);
    expect(first.recording).toMatchObject({ transcript: 'Called from the train home.', transcript_status: 'done', mime_type: 'audio/wav' });
    const again = await addRecording(t.app.ctx, dave.id, { audio, origin: 'call', receivedAt, sourceKey: 'call:RE0001', transcript: 'Called from the train home.' });
    expect(again).toMatchObject({ added: false, entryId: first.entryId });
    expect(again.recording.id).toBe(first.recording.id);
    const { entries } = await listEntries(t, dave);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ id: first.entryId, source: 'sms', entry_date: '2026-11-20', content: 'Called from the train home.' });
    expect(entries[0]!.recordings).toHaveLength(1);
    // A text the same day joins the same entry, and a second call too.
    const second = await addRecording(t.app.ctx, dave.id, { audio, origin: 'call', receivedAt: new Date('2026-11-21T06:00:00Z'), sourceKey: 'call:RE0002' });
    expect(second.entryId).toBe(first.entryId);
    expect((await entryOf(t, dave, first.entryId)).recordings!.map((r) => r.id)).toEqual([first.recording.id, second.recording.id]);
    // Its search finds the transcript.
    expect((await listEntries(t, dave, '?q=train')).entries.map((e) => e.id)).toEqual([first.entryId]);
    // The audio opens for the transcription job.
    const row = (await findRecording(t.app.ctx.db, dave.id, second.recording.id))!;
    expect((await readRecordingAudio(t.app.ctx, row)).equals(audio)).toBe(true);
  });
});

describe('voice notes with transcription configured', () => {
  let t: TestApp;
  let alice: JournalTestUser;
  beforeAll(async () => {
    // Nothing listens there: these tests drive the transcript through the door the job uses.
    t = await buildTestApp({ TRANSCRIBE_URL: 'http://127.0.0.1:9/v1' });
    alice = await journalUser(t);
  });
  afterAll(() => t.close());

  it('a new recording is pending; its transcript joins the entry text and search; "not transcribed" can be asked again', async () => {
    const entry = await createEntry(t, alice, { content: 'Morning pages' });
    const { recording } = (await upload(t, alice, entry.id, await testAudio('m4a', 2))).json() as { recording: EntryRecording };
    expect(recording).toMatchObject({ transcript: null, transcript_status: 'pending' });
    const pendingRow = (await findRecording(t.app.ctx.db, alice.id, recording.id))!;
    expect(pendingRow.transcribe_next_at).not.toBeNull();
    // Transcribe again is for a recording not transcribed only.
    const early = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/recordings/${recording.id}/transcribe`, headers: alice.headers });
    expect(early.statusCode).toBe(409);

    await markNotTranscribed(t.app.ctx, recording.id, alice.id, 'timeout');
    expect((await entryOf(t, alice, entry.id)).recordings![0]).toMatchObject({ transcript: null, transcript_status: 'failed' });
    const again = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/recordings/${recording.id}/transcribe`, headers: alice.headers });
    expect(again.statusCode).toBe(202);
    expect((await entryOf(t, alice, entry.id)).recordings![0]!.transcript_status).toBe('pending');

    expect(await recordTranscript(t.app.ctx, recording.id, alice.id, 'The heron was back on the weir.')).toBe(true);
    // Once: a job that runs again changes nothing.
    expect(await recordTranscript(t.app.ctx, recording.id, alice.id, 'The heron was back on the weir.')).toBe(false);
    const after = await entryOf(t, alice, entry.id);
    expect(after.content).toBe('Morning pages\n\nThe heron was back on the weir.');
    expect(after.recordings![0]).toMatchObject({ transcript: 'The heron was back on the weir.', transcript_status: 'done' });
    expect((await listEntries(t, alice, '?q=heron')).entries.map((e) => e.id)).toEqual([entry.id]);
    // Kept encrypted like entry text.
    const row = (await findRecording(t.app.ctx.db, alice.id, recording.id))!;
    expect(row.transcript).toMatch(/^ENC:/);
  });
});
