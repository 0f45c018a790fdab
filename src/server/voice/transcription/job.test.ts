import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, buildUser, signIn, type TestUser } from '../../test/factories';
import { buildTranscriptionTestApp, startFakeTranscriber, toneWav, type FakeTranscriber, type TranscriptionTestApp } from '../../test/transcription';
import { addRecording, requestTranscription } from '../recordings';
import { GIVE_UP_AFTER_MS, leaseMs, processTranscriptions, SERVICE_AT_ONCE } from './job';

// Backoff without its spread: each wait is its ceiling, so the test knows when the next try is due.
const noSpread = { random: () => 1 };

async function recordingRow(t: TranscriptionTestApp, id: string) {
  return t.ctx.db.selectFrom('journal_recordings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The entry's text as its owner reads it (GET /api/entries). */
async function entryContent(t: TranscriptionTestApp, user: TestUser, entryId: string): Promise<string> {
  const answer = await apiClient(t).get('/api/entries', await signIn(t, user));
  expect(answer.status).toBe(200);
  const entry = (answer.body.entries as Array<{ id: string; content: string }>).find((e) => e.id === entryId);
  expect(entry).toBeDefined();
  return entry!.content;
}

/** A voice note arriving now, as a call's recording does: pending, attached to the day's entry. */
async function voiceNote(t: TranscriptionTestApp, user: TestUser, seconds = 3) {
  const added = await addRecording(t.ctx, user.id, { audio: toneWav(seconds), origin: 'call', receivedAt: t.clock.now() });
  expect(added.recording.transcript_status).toBe('pending');
  return { id: added.recording.id, entryId: added.entryId };
}

/** Moves the app's clock to the recording's next try. */
async function untilDue(t: TranscriptionTestApp, id: string): Promise<void> {
  const row = await recordingRow(t, id);
  t.clock.set(new Date(Math.max(t.clock.now().getTime(), Date.parse(row.transcribe_next_at!))));
}

describe('the transcription job', () => {
  let fake: FakeTranscriber;
  let t: TranscriptionTestApp;
  beforeAll(async () => {
    fake = await startFakeTranscriber();
    t = await buildTranscriptionTestApp({ fake, env: { TRANSCRIBE_TIMEOUT_SECONDS: '1' } });
  });
  afterEach(() => fake.outage(null));
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it("transcribes a pending voice note and adds the transcript to its entry's text", async () => {
    const user = await buildUser(t);
    const note = await voiceNote(t, user);
    fake.answerNext('Long day. The bus was late, but the sunset made up for it.');
    expect(await processTranscriptions(t.ctx)).toEqual({ transcribed: 1, retried: 0, failed: 0 });
    expect(await recordingRow(t, note.id)).toMatchObject({ transcript_status: 'done', transcribe_attempts: 1, transcribe_claimed_at: null, transcribe_next_at: null });
    expect(await entryContent(t, user, note.entryId)).toContain('Long day. The bus was late, but the sunset made up for it.');
    // Done is done: another run asks the service nothing more.
    const asked = fake.requests.length;
    expect(await processTranscriptions(t.ctx)).toEqual({ transcribed: 0, retried: 0, failed: 0 });
    expect(fake.requests).toHaveLength(asked);
  });

  it('waits out a 429 for as long as Retry-After says, then transcribes', async () => {
    const user = await buildUser(t);
    const note = await voiceNote(t, user);
    fake.failNext({ status: 429, retryAfter: '120' });
    const triedAt = t.clock.now().getTime();
    expect(await processTranscriptions(t.ctx)).toEqual({ transcribed: 0, retried: 1, failed: 0 });
    const waiting = await recordingRow(t, note.id);
    expect(waiting).toMatchObject({ transcript_status: 'pending', transcribe_claimed_at: null, transcribe_error: 'rate limited' });
    expect(Date.parse(waiting.transcribe_next_at!)).toBe(triedAt + 120_000);
    const asked = fake.requests.length;
    t.clock.advance(119_000);
    await processTranscriptions(t.ctx);
    expect(fake.requests).toHaveLength(asked);
    t.clock.advance(1_000);
    fake.answerNext('After the wait.');
    expect(await processTranscriptions(t.ctx)).toEqual({ transcribed: 1, retried: 0, failed: 0 });
    expect(await entryContent(t, user, note.entryId)).toContain('After the wait.');
  });

  it('retries a 500 with backoff until the service answers', async () => {
    const user = await buildUser(t);
    const note = await voiceNote(t, user);
    fake.failNext({ status: 500 }, 2);
    expect(await processTranscriptions(t.ctx, noSpread)).toMatchObject({ retried: 1 });
    const first = await recordingRow(t, note.id);
    expect(Date.parse(first.transcribe_next_at!) - t.clock.now().getTime()).toBe(30_000);
    await untilDue(t, note.id);
    expect(await processTranscriptions(t.ctx, noSpread)).toMatchObject({ retried: 1 });
    const second = await recordingRow(t, note.id);
    expect(Date.parse(second.transcribe_next_at!) - t.clock.now().getTime()).toBe(60_000);
    await untilDue(t, note.id);
    fake.answerNext('Third time lucky.');
    expect(await processTranscriptions(t.ctx, noSpread)).toEqual({ transcribed: 1, retried: 0, failed: 0 });
    expect(await recordingRow(t, note.id)).toMatchObject({ transcript_status: 'done', transcribe_attempts: 3 });
    expect(await entryContent(t, user, note.entryId)).toContain('Third time lucky.');
  });

  it('gives up on a request that hangs, before or after its headers, and retries it', async () => {
    const user = await buildUser(t);
    const note = await voiceNote(t, user);
    for (const hang of ['before-headers', 'after-headers'] as const) {
      fake.failNext({ hang });
      const started = Date.now();
      expect(await processTranscriptions(t.ctx, noSpread)).toMatchObject({ retried: 1 });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await recordingRow(t, note.id)).toMatchObject({ transcript_status: 'pending', transcribe_error: 'timed out', transcribe_claimed_at: null });
      await untilDue(t, note.id);
    }
    fake.answerNext('No more hanging.');
    expect(await processTranscriptions(t.ctx)).toMatchObject({ transcribed: 1 });
    expect(await entryContent(t, user, note.entryId)).toContain('No more hanging.');
  });

  it('keeps a voice note the service refuses as too large "not transcribed" at once, and "Transcribe again" brings it back', async () => {
    const user = await buildUser(t);
    const note = await voiceNote(t, user);
    fake.failNext({ status: 413 });
    expect(await processTranscriptions(t.ctx)).toEqual({ transcribed: 0, retried: 0, failed: 1 });
    expect(await recordingRow(t, note.id)).toMatchObject({ transcript_status: 'failed', transcribe_next_at: null, transcribe_claimed_at: null, transcribe_error: 'audio too large for the service' });
    expect(fake.requests.at(-1)!.answered).toBe(413);
    await requestTranscription(t.ctx, user.id, note.entryId, note.id);
    expect(await recordingRow(t, note.id)).toMatchObject({ transcript_status: 'pending' });
    fake.answerNext('Shorter this time.');
    expect(await processTranscriptions(t.ctx)).toMatchObject({ transcribed: 1 });
    expect(await entryContent(t, user, note.entryId)).toContain('Shorter this time.');
  });

  it('keeps a voice note "not transcribed", with its audio, after a day of failures', async () => {
    const user = await buildUser(t);
    const note = await voiceNote(t, user);
    const arrived = t.clock.now().getTime();
    fake.outage({ status: 503 });
    // The first tries, each when it is due.
    for (let tries = 0; tries < 6; tries++) {
      expect(await processTranscriptions(t.ctx, noSpread)).toMatchObject({ retried: 1 });
      await untilDue(t, note.id);
    }
    // Still retried just before the day is over…
    t.clock.set(new Date(arrived + GIVE_UP_AFTER_MS - 60_000));
    expect(await processTranscriptions(t.ctx, noSpread)).toMatchObject({ retried: 1 });
    expect(await recordingRow(t, note.id)).toMatchObject({ transcript_status: 'pending' });
    // …and kept "not transcribed" by the first try that fails after it.
    await untilDue(t, note.id);
    expect(await processTranscriptions(t.ctx, noSpread)).toEqual({ transcribed: 0, retried: 0, failed: 1 });
    const row = await recordingRow(t, note.id);
    expect(row).toMatchObject({ transcript_status: 'failed', transcript: null, transcribe_next_at: null, transcribe_error: 'service error' });
    // Retried all day: not before the day was over, nor long after.
    expect(t.clock.now().getTime() - arrived).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS);
    expect(t.clock.now().getTime() - arrived).toBeLessThan(GIVE_UP_AFTER_MS + 31 * 60_000);
    expect(row.transcribe_attempts).toBe(8);
    expect(existsSync(join(t.shared.STORAGE_URL!, row.file_path))).toBe(true);
    // The entry still holds it (its text is what it was: nothing was said).
    expect(await entryContent(t, user, note.entryId)).toBe('');
  });

  it('logs a refused key once, not on every try, and keeps retrying the voice notes', async () => {
    const wrongKey = await buildTranscriptionTestApp({ fake, env: { TRANSCRIBE_API_KEY: 'sk-not-the-key' } });
    try {
      const user = await buildUser(wrongKey);
      const notes = [await voiceNote(wrongKey, user), await voiceNote(wrongKey, user)];
      expect(await processTranscriptions(wrongKey.ctx)).toEqual({ transcribed: 0, retried: 2, failed: 0 });
      for (const note of notes) await untilDue(wrongKey, note.id);
      expect(await processTranscriptions(wrongKey.ctx)).toEqual({ transcribed: 0, retried: 2, failed: 0 });
      const refusals = wrongKey.logLines.filter((line) => line.includes('refuses TRANSCRIBE_API_KEY'));
      expect(refusals).toHaveLength(1);
      expect(JSON.parse(refusals[0]!)).toMatchObject({ level: 50, status: 401 });
      expect(wrongKey.logLines.join('\n')).not.toContain('sk-not-the-key');
      for (const note of notes) expect(await recordingRow(wrongKey, note.id)).toMatchObject({ transcript_status: 'pending', transcribe_error: 'key refused', transcribe_attempts: 2 });
    } finally {
      await wrongKey.close();
    }
  });

  it('keeps a pending voice note sealed meanwhile (its owner turned the vault on) "not transcribed", asking no one', async () => {
    const user = await buildUser(t);
    const note = await voiceNote(t, user);
    // What sealing a journal leaves of a recording still waiting: its audio sealed to the vault.
    await t.ctx.db.updateTable('journal_recordings').set({ sealed: 1 }).where('id', '=', note.id).execute();
    const asked = fake.requests.length;
    expect(await processTranscriptions(t.ctx)).toEqual({ transcribed: 0, retried: 0, failed: 1 });
    expect(fake.requests).toHaveLength(asked);
    expect(await recordingRow(t, note.id)).toMatchObject({ transcript_status: 'failed', transcribe_error: 'sealed before it was transcribed', transcribe_claimed_at: null });
  });

  it('does nothing without TRANSCRIBE_URL: voice notes are kept not transcribed from the start', async () => {
    const plain = await buildTranscriptionTestApp();
    try {
      const user = await buildUser(plain);
      const added = await addRecording(plain.ctx, user.id, { audio: toneWav(2), origin: 'web', receivedAt: plain.clock.now() });
      expect(added.recording.transcript_status).toBe('failed');
      const asked = fake.requests.length;
      expect(await processTranscriptions(plain.ctx)).toEqual({ transcribed: 0, retried: 0, failed: 0 });
      expect(fake.requests).toHaveLength(asked);
    } finally {
      await plain.close();
    }
  });
});

describe('the transcription job on two instances', () => {
  let fake: FakeTranscriber;
  let a: TranscriptionTestApp;
  let b: TranscriptionTestApp;
  beforeAll(async () => {
    fake = await startFakeTranscriber();
    a = await buildTranscriptionTestApp({ fake });
    b = await buildTranscriptionTestApp({ fake, sameAs: a });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await fake.close();
  });

  it('transcribes each voice note once when both run at the same time', async () => {
    const user = await buildUser(a);
    const notes = [];
    for (let i = 1; i <= 6; i++) notes.push(await voiceNote(a, user, i));
    for (let i = 1; i <= 6; i++) fake.answerFor(i, `Note number ${i}.`);
    const asked = fake.requests.length;
    const [ranA, ranB] = await Promise.all([processTranscriptions(a.ctx), processTranscriptions(b.ctx)]);
    expect(ranA.transcribed + ranB.transcribed).toBe(6);
    expect(fake.requests.length - asked).toBe(6);
    expect(new Set(fake.requests.slice(asked).map((r) => Math.round(r.seconds)))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    const content = await entryContent(a, user, notes[0]!.entryId);
    for (let i = 1; i <= 6; i++) expect(content.split(`Note number ${i}.`)).toHaveLength(2);
  });

  it("takes over a stopped instance's claim once its lease has run out, and not before", async () => {
    const user = await buildUser(a);
    const note = await voiceNote(a, user);
    // What an instance killed mid-request leaves: the recording claimed, its try counted.
    await a.ctx.db.updateTable('journal_recordings').set({ transcribe_claimed_at: a.clock.now().toISOString(), transcribe_attempts: 1 }).where('id', '=', note.id).execute();
    const asked = fake.requests.length;
    b.clock.set(a.clock.now());
    expect(await processTranscriptions(b.ctx)).toEqual({ transcribed: 0, retried: 0, failed: 0 });
    b.clock.advance(leaseMs(b.ctx.config.transcription!) - 1_000);
    expect(await processTranscriptions(b.ctx)).toEqual({ transcribed: 0, retried: 0, failed: 0 });
    expect(fake.requests).toHaveLength(asked);
    b.clock.advance(1_001);
    fake.answerNext('Picked up where the other left off.');
    expect(await processTranscriptions(b.ctx)).toEqual({ transcribed: 1, retried: 0, failed: 0 });
    expect(await recordingRow(b, note.id)).toMatchObject({ transcript_status: 'done', transcribe_attempts: 2 });
    expect(await entryContent(a, user, note.entryId)).toContain('Picked up where the other left off.');
  });
});

describe('the transcription job with a busy service', () => {
  let fake: FakeTranscriber;
  let t: TranscriptionTestApp;
  beforeAll(async () => {
    fake = await startFakeTranscriber();
    t = await buildTranscriptionTestApp({ fake, env: { TRANSCRIBE_TIMEOUT_SECONDS: '30' } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('keeps a few requests going at once, and transcribes each note once', async () => {
    const user = await buildUser(t);
    const notes = [];
    for (let i = 0; i < SERVICE_AT_ONCE * 2; i++) notes.push(await voiceNote(t, user));
    fake.answerAfter(1000);
    const asked = fake.requests.length;
    try {
      expect(await processTranscriptions(t.ctx)).toEqual({ transcribed: notes.length, retried: 0, failed: 0 });
    } finally {
      fake.answerAfter(0);
    }
    expect(fake.requests.length - asked).toBe(notes.length);
    // More than one at a time, never more than the bound (how many overlap depends on decoding's pace).
    expect(fake.mostAtOnce()).toBeGreaterThan(1);
    expect(fake.mostAtOnce()).toBeLessThanOrEqual(SERVICE_AT_ONCE);
    for (const note of notes) expect(await recordingRow(t, note.id)).toMatchObject({ transcript_status: 'done', transcribe_attempts: 1 });
  });
});
