import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, buildUser, signIn, type TestUser } from '../../test/factories';
import { browserKeys, sealJournal, turnOn } from '../../test/vault';
import { callWav, postIncomingCall, postRecordingCallback, voiceCall } from '../../test/calls';
import { buildSmsTestApp, journalOf, withTwilioApp, type FakeTwilio, type SmsTestApp } from '../../test/sms';
import { downloadCallRecordings } from './download-job';

// Noon in New York, the test users' zone; every test pins the clock here.
const NOON_NEW_YORK = new Date('2026-06-15T16:00:00Z');

/** A call from the user whose recording Twilio has just reported. */
async function reportedCall(t: SmsTestApp, twilio: FakeTwilio, user: TestUser, audio: Buffer) {
  const { callSid } = await postIncomingCall(t, user.phone);
  const recording = twilio.record(audio, 1);
  expect((await postRecordingCallback(t, callSid, recording)).statusCode).toBe(204);
  return { callSid, recording };
}

async function recordingsOf(t: SmsTestApp, userId: string) {
  return t.ctx.db
    .selectFrom('journal_recordings')
    .innerJoin('journal_entries', 'journal_entries.id', 'journal_recordings.entry_id')
    .select(['journal_recordings.origin', 'journal_recordings.source_key', 'journal_recordings.mime_type', 'journal_recordings.duration_seconds', 'journal_recordings.received_at', 'journal_entries.entry_date'])
    .where('journal_recordings.user_id', '=', userId)
    .execute();
}

const deletesOf = (twilio: FakeTwilio, sid: string) => twilio.requests.filter((r) => r.method === 'DELETE' && r.path.endsWith(`/Recordings/${sid}.json`)).length;

describe('the call recordings job', () => {
  let t: SmsTestApp;
  let twilio: FakeTwilio;
  let wav: Buffer;
  withTwilioApp((app) => ({ t, twilio } = app));
  beforeAll(async () => {
    wav = await callWav(1);
  });
  beforeEach(() => t.clock.set(NOON_NEW_YORK));

  it("downloads a completed recording into today's phone entry, then deletes it at Twilio", async () => {
    const user = await buildUser(t);
    const { callSid, recording } = await reportedCall(t, twilio, user, wav);
    const run = await downloadCallRecordings(t.ctx);
    expect(run).toMatchObject({ attached: 1, deleted: 1, retrying: 0, gaveUp: 0 });
    expect(await recordingsOf(t, user.id)).toEqual([
      { origin: 'call', source_key: `call:${recording.sid}`, mime_type: 'audio/wav', duration_seconds: 1, received_at: NOON_NEW_YORK.toISOString(), entry_date: '2026-06-15' },
    ]);
    // The fake served it only with the account's Basic credentials.
    expect(recording.downloads).toBe(1);
    expect((await fetch(`${recording.url}.wav`)).status).toBe(401);
    // The user finds it in today's entry, not transcribed (no transcription is set up here).
    const [entry] = await journalOf(t, user.id);
    expect(entry).toMatchObject({ entry_date: '2026-06-15' });
    expect(entry!.recordings).toEqual([expect.objectContaining({ mime_type: 'audio/wav', duration_seconds: 1, transcript: null })]);
    expect(recording.deleted).toBe(true);
    expect(await voiceCall(t, callSid)).toMatchObject({ status: 'done', done_at: NOON_NEW_YORK.toISOString(), claimed_at: null });
    // A redelivered callback afterwards adds nothing, and the job finds nothing to do.
    expect((await postRecordingCallback(t, callSid, recording)).statusCode).toBe(204);
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ attached: 0, deleted: 0 });
    expect(await recordingsOf(t, user.id)).toHaveLength(1);
  });

  it('attaches once when an instance dies between the attach and its record of it: the download is redone, the recording is not added twice', async () => {
    const user = await buildUser(t);
    const { callSid, recording } = await reportedCall(t, twilio, user, wav);
    await downloadCallRecordings(t.ctx);
    // As if the row's update after the attach never happened (and Twilio still had the file).
    recording.deleted = false;
    await t.ctx.db.updateTable('voice_calls').set({ status: 'download', done_at: null, next_at: NOON_NEW_YORK.toISOString() }).where('call_sid', '=', callSid).execute();
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ attached: 1, deleted: 1 });
    expect(recording.downloads).toBe(2);
    expect(await recordingsOf(t, user.id)).toHaveLength(1);
  });

  it('retries a download answered 500, then attaches it', async () => {
    const user = await buildUser(t);
    const { callSid, recording } = await reportedCall(t, twilio, user, wav);
    twilio.failRecordingDownloads({ status: 500, code: 20500 });
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ attached: 0, retrying: 1 });
    expect(await voiceCall(t, callSid)).toMatchObject({ status: 'download', claimed_at: null, error: 'HTTP 500', next_at: new Date(NOON_NEW_YORK.getTime() + 10_000).toISOString() });
    // Not before its time.
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ attached: 0, retrying: 0 });
    t.clock.advance(10_000);
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ attached: 1, deleted: 1 });
    expect(recording.downloads).toBe(2);
    expect(await recordingsOf(t, user.id)).toHaveLength(1);
  });

  it("waits out a 429's Retry-After", async () => {
    const user = await buildUser(t);
    const { callSid } = await reportedCall(t, twilio, user, wav);
    twilio.failRecordingDownloads({ status: 429, code: 20429, retryAfter: '120' });
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ retrying: 1 });
    expect(await voiceCall(t, callSid)).toMatchObject({ error: 'HTTP 429', next_at: new Date(NOON_NEW_YORK.getTime() + 120_000).toISOString() });
    t.clock.advance(60_000);
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ attached: 0 });
    t.clock.advance(60_000);
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ attached: 1 });
    expect(await recordingsOf(t, user.id)).toHaveLength(1);
  });

  it('tries again after a download that is never answered, or that stops half-way', async () => {
    const user = await buildUser(t);
    const { callSid, recording } = await reportedCall(t, twilio, user, wav);
    twilio.failRecordingDownloads('hang', 'accept-then-hang');
    expect(await downloadCallRecordings(t.ctx, undefined, { timeoutMs: 300 })).toMatchObject({ retrying: 1 });
    expect(await voiceCall(t, callSid)).toMatchObject({ error: 'no answer in 300 ms' });
    t.clock.advance(10_000);
    expect(await downloadCallRecordings(t.ctx, undefined, { timeoutMs: 300 })).toMatchObject({ retrying: 1 });
    expect(await voiceCall(t, callSid)).toMatchObject({ error: 'download broke off', next_at: new Date(NOON_NEW_YORK.getTime() + 30_000).toISOString() });
    t.clock.advance(20_000);
    expect(await downloadCallRecordings(t.ctx, undefined, { timeoutMs: 300 })).toMatchObject({ attached: 1, deleted: 1 });
    expect(recording.downloads).toBe(3);
    expect(await recordingsOf(t, user.id)).toHaveLength(1);
  });

  it('gives a recording Twilio no longer has up after ten minutes of 404s, and logs it without the number', async () => {
    const user = await buildUser(t);
    const { callSid, recording } = await reportedCall(t, twilio, user, wav);
    recording.deleted = true;
    const lines: Array<{ obj: unknown; msg: string }> = [];
    const log = { warn: (obj: unknown, msg: string) => void lines.push({ obj, msg }) } as unknown as Parameters<typeof downloadCallRecordings>[1];
    expect(await downloadCallRecordings(t.ctx, log)).toMatchObject({ retrying: 1 });
    t.clock.advance(11 * 60_000);
    expect(await downloadCallRecordings(t.ctx, log)).toMatchObject({ gaveUp: 1 });
    expect(await voiceCall(t, callSid)).toMatchObject({ status: 'failed', error: 'not found at Twilio', next_at: null });
    expect(lines.map((l) => l.msg)).toEqual(['call recording given up']);
    expect(JSON.stringify(lines)).not.toContain(user.phone);
    expect(await recordingsOf(t, user.id)).toEqual([]);
  });

  it("waits out a live claim, takes over a killed worker's once its lease ends, and at a start takes over every claim made before it", async () => {
    const user = await buildUser(t);
    await downloadCallRecordings(t.ctx); // this instance has started
    const { callSid } = await reportedCall(t, twilio, user, wav);
    // Another instance claimed it a moment ago, and was killed.
    t.clock.advance(1_000);
    await t.ctx.db.updateTable('voice_calls').set({ claimed_at: t.clock.now().toISOString(), attempts: 1 }).where('call_sid', '=', callSid).execute();
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ attached: 0 });
    t.clock.advance(2 * 60_000 + 1);
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ attached: 1, deleted: 1 });
    expect(await recordingsOf(t, user.id)).toHaveLength(1);

    // A new instance's first run is its recovery: a claim older than its start is its own crashed one.
    const second = await reportedCall(t, twilio, user, wav);
    await t.ctx.db.updateTable('voice_calls').set({ claimed_at: t.clock.now().toISOString(), attempts: 1 }).where('call_sid', '=', second.callSid).execute();
    const restarted = await buildSmsTestApp({ twilio, sameDatabaseAs: t });
    try {
      restarted.clock.set(new Date(t.clock.now().getTime() + 1_000));
      expect(await downloadCallRecordings(restarted.ctx)).toMatchObject({ attached: 1, deleted: 1 });
    } finally {
      await restarted.close();
    }
    expect(await recordingsOf(t, user.id)).toHaveLength(2);
  });

  it('retries the delete at Twilio when it fails, without downloading again', async () => {
    const user = await buildUser(t);
    const { callSid, recording } = await reportedCall(t, twilio, user, wav);
    twilio.failRecordingDeletes({ status: 503, code: 20503 });
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ attached: 1, deleted: 0, retrying: 1 });
    expect(await voiceCall(t, callSid)).toMatchObject({ status: 'delete', error: 'HTTP 503', next_at: new Date(NOON_NEW_YORK.getTime() + 10_000).toISOString() });
    expect(recording.deleted).toBe(false);
    t.clock.advance(10_000);
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ attached: 0, deleted: 1 });
    expect(recording.deleted).toBe(true);
    expect(recording.downloads).toBe(1);
    expect(deletesOf(twilio, recording.sid)).toBe(2);
    expect(await recordingsOf(t, user.id)).toHaveLength(1);
  });

  it("seals a vault user's call to the vault as it attaches it: the server keeps no audio it can open", async () => {
    const user = await buildUser(t);
    const journalUser = { id: user.id, token: '', headers: bearer(await signIn(t, user)) };
    const keys = await browserKeys();
    await turnOn(t, journalUser, keys);
    await sealJournal(t, journalUser);
    const { recording } = await reportedCall(t, twilio, user, wav);
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ attached: 1, deleted: 1 });
    const row = await t.ctx.db.selectFrom('journal_recordings').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ sealed: 1, source_key: `call:${recording.sid}` });
    const stored = await t.ctx.storage.get(row.file_path);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.stream) chunks.push(chunk as Buffer);
    expect(keys.openFile(new Uint8Array(Buffer.concat(chunks)))).toEqual(wav);
    expect(recording.deleted).toBe(true);
  });
});

describe('the call recordings job with TWILIO_REDACT=false', () => {
  let t: SmsTestApp;
  let twilio: FakeTwilio;
  withTwilioApp((app) => ({ t, twilio } = app), { env: { TWILIO_REDACT: 'false' } });
  beforeEach(() => t.clock.set(NOON_NEW_YORK));

  it("attaches the recording and leaves Twilio's copy", async () => {
    const user = await buildUser(t);
    const { callSid, recording } = await reportedCall(t, twilio, user, await callWav(1));
    expect(await downloadCallRecordings(t.ctx)).toMatchObject({ attached: 1, deleted: 0 });
    expect(recording.deleted).toBe(false);
    expect(deletesOf(twilio, recording.sid)).toBe(0);
    expect(await voiceCall(t, callSid)).toMatchObject({ status: 'done' });
    expect(await recordingsOf(t, user.id)).toHaveLength(1);
  });
});
