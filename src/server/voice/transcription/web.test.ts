import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntryRecording, JournalEntry } from '../../../shared/journal';
import { createEntry, journalUser, listEntries, multipart, type JournalTestUser } from '../../test/journal';
import { buildTranscriptionTestApp, startFakeTranscriber, toneWav, type FakeTranscriber, type TranscriptionTestApp } from '../../test/transcription';
import { browserKeys, sealJournal, turnOn } from '../../test/vault';
import { heardInMemory } from './in-memory';
import { processTranscriptions } from './job';

// Voice notes from the web, end to end: the upload wakes the job (the scheduler runs, as in
// production), the transcript joins the entry, "Transcribe again" brings a refused one back; and a
// vault user's voice note is transcribed once, in memory, before it is sealed.

const upload = async (t: TranscriptionTestApp, user: JournalTestUser, entryId: string, bytes: Buffer) => {
  const form = await multipart({}, [{ name: 'note.wav', bytes, type: 'audio/wav' }], 'file');
  const res = await t.app.inject({ method: 'POST', url: `/api/entries/${entryId}/recordings`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
  expect(res.statusCode).toBe(201);
  return (res.json() as { recording: EntryRecording }).recording;
};

const entryOf = async (t: TranscriptionTestApp, user: JournalTestUser, entryId: string): Promise<JournalEntry> => {
  const entry = (await listEntries(t, user)).entries.find((e) => e.id === entryId);
  if (!entry) throw new Error('entry not listed');
  return entry;
};

/** The entry once its recording has left 'pending' (the scheduler's job runs on its own). */
async function settled(t: TranscriptionTestApp, user: JournalTestUser, entryId: string, recordingId: string): Promise<JournalEntry> {
  for (let i = 0; i < 200; i++) {
    const entry = await entryOf(t, user, entryId);
    if (entry.recordings?.find((r) => r.id === recordingId)?.transcript_status !== 'pending') return entry;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the recording stayed pending');
}

describe('voice notes from the web with a transcription service', () => {
  let fake: FakeTranscriber;
  let t: TranscriptionTestApp;
  beforeAll(async () => {
    fake = await startFakeTranscriber();
    t = await buildTranscriptionTestApp({ fake, env: { JOBS: 'on' } });
    t.clock.set(new Date('2026-11-20T15:00:00Z'));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it("wakes the job with the upload; the transcript joins the entry's text and the recording", async () => {
    const alice = await journalUser(t);
    const entry = await createEntry(t, alice, { content: 'Evening by the harbour.' });
    fake.answerNext('The ferries came in one after another.');
    const recording = await upload(t, alice, entry.id, toneWav(4));
    expect(recording).toMatchObject({ transcript: null, transcript_status: 'pending' });
    const done = await settled(t, alice, entry.id, recording.id);
    expect(done.content).toBe('Evening by the harbour.\n\nThe ferries came in one after another.');
    expect(done.recordings).toEqual([expect.objectContaining({ id: recording.id, transcript: 'The ferries came in one after another.', transcript_status: 'done' })]);
    // Found by a word it contains.
    expect((await listEntries(t, alice, '?q=ferries')).entries.map((e) => e.id)).toEqual([entry.id]);
  });

  it('"Transcribe again" (202) sends a voice note the service refused back to it', async () => {
    const alice = await journalUser(t);
    const entry = await createEntry(t, alice, { content: 'Too long a note.' });
    fake.failNext({ status: 413 });
    const recording = await upload(t, alice, entry.id, toneWav(2));
    const refused = await settled(t, alice, entry.id, recording.id);
    expect(refused.recordings?.[0]).toMatchObject({ transcript: null, transcript_status: 'failed' });
    fake.answerNext('Second try, accepted.');
    const again = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/recordings/${recording.id}/transcribe`, headers: alice.headers });
    expect(again.statusCode).toBe(202);
    const done = await settled(t, alice, entry.id, recording.id);
    expect(done.recordings?.[0]).toMatchObject({ transcript: 'Second try, accepted.', transcript_status: 'done' });
    expect(done.content).toContain('Second try, accepted.');
  });
});

describe("a vault user's voice notes", () => {
  let fake: FakeTranscriber;
  let t: TranscriptionTestApp;
  beforeAll(async () => {
    fake = await startFakeTranscriber();
    t = await buildTranscriptionTestApp({ fake });
    t.clock.set(new Date('2026-11-20T15:00:00Z'));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('are heard once from memory as they arrive, after sealing, and never left to the job', async () => {
    const alice = await journalUser(t);
    const entry = await createEntry(t, alice, { content: 'Private thoughts.' });
    const keys = await browserKeys();
    await turnOn(t, alice, keys);
    await sealJournal(t, alice);

    fake.answerNext('Only the vault can read this.');
    // The upload is answered as soon as the sealed note is stored, without waiting for the service.
    expect(await upload(t, alice, entry.id, toneWav(3))).toMatchObject({ transcript: null, transcript_status: 'pending' });
    await heardInMemory(t.ctx);
    // The service failing at that one moment leaves it "not transcribed": the server cannot hear it later.
    fake.failNext({ status: 503 });
    expect((await upload(t, alice, entry.id, toneWav(2))).transcript_status).toBe('pending');
    await heardInMemory(t.ctx);

    const asked = fake.requests.length;
    expect(await processTranscriptions(t.ctx)).toEqual({ transcribed: 0, retried: 0, failed: 0 });
    expect(fake.requests).toHaveLength(asked);
    const listed = await entryOf(t, alice, entry.id);
    expect(listed.recordings?.map((r) => r.transcript_status)).toEqual(['done', 'failed']);
    expect(JSON.parse(keys.open(listed.recordings![0]!.sealed!))).toEqual({ transcript: 'Only the vault can read this.' });
  });
});
