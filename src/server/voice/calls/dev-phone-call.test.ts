import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerSalt } from '../../journal/owner';
import { buildUser, uniquePhone } from '../../test/factories';
import { callWav, voiceCall } from '../../test/calls';
import { buildSmsTestApp, type SmsTestApp } from '../../test/sms';
import { spokenTexts } from './spoken';

// The dev phone's call runs the real path over HTTP: the download job fetches the recording from
// this server, so the app listens on a port of its own.
describe('POST /api/dev/phone/calls (simulator)', () => {
  let t: SmsTestApp;
  let base: string;
  beforeAll(async () => {
    t = await buildSmsTestApp();
    t.clock.set(new Date('2026-06-15T16:00:00Z'));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  const call = async (fields: { from: string; said?: string; audio?: Buffer }) => {
    const form = new FormData();
    form.set('from', fields.from);
    if (fields.said !== undefined) form.set('said', fields.said);
    if (fields.audio) form.set('audio', new Blob([new Uint8Array(fields.audio)], { type: 'audio/wav' }), 'call.wav');
    const res = await fetch(`${base}/api/dev/phone/calls`, { method: 'POST', body: form });
    return { status: res.status, body: (await res.json()) as { call_sid: string; recorded: boolean; said: string; heard: string } };
  };

  const recordingsOf = (userId: string) =>
    t.ctx.db
      .selectFrom('journal_recordings')
      .innerJoin('journal_entries', 'journal_entries.id', 'journal_recordings.entry_id')
      .select(['journal_recordings.origin', 'journal_recordings.transcript_status', 'journal_recordings.transcript', 'journal_recordings.duration_seconds', 'journal_entries.entry_date', 'journal_entries.content'])
      .where('journal_recordings.user_id', '=', userId)
      .execute();

  it("records a call from a file into today's entry, and what was said is the transcript", async () => {
    const user = await buildUser(t);
    const { status, body } = await call({ from: user.phone, said: 'A walk by the river', audio: await callWav(2) });
    expect(status).toBe(202);
    expect(body).toMatchObject({ recorded: true, said: 'A walk by the river', heard: `${spokenTexts.greeting} ${spokenTexts.saved}` });
    expect(await voiceCall(t, body.call_sid)).toMatchObject({ status: 'done', user_id: user.id });
    const [recording, ...more] = await recordingsOf(user.id);
    expect(more).toEqual([]);
    expect(recording).toMatchObject({ origin: 'call', transcript_status: 'done', duration_seconds: 2, entry_date: '2026-06-15' });
    // Encrypted at rest like the entry's text.
    expect(recording!.transcript).toMatch(/^ENC:/);
    const salt = await ownerSalt(t.ctx, user.id);
    expect(t.ctx.cipher.decrypt(user.id, salt, recording!.transcript!)).toBe('A walk by the river');
    // And the words are the entry's text, found by search like any text.
    expect(t.ctx.cipher.decrypt(user.id, salt, recording!.content)).toContain('A walk by the river');
  });

  it('makes a tone when no file is given', async () => {
    const user = await buildUser(t);
    const { status, body } = await call({ from: user.phone, said: 'Just a tone' });
    expect(status).toBe(202);
    expect(body.recorded).toBe(true);
    expect(await recordingsOf(user.id)).toEqual([expect.objectContaining({ origin: 'call', duration_seconds: 2 })]);
  });

  it('answers an unknown number with the sentence it hears, and records nothing', async () => {
    const { status, body } = await call({ from: uniquePhone(), said: 'hello' });
    expect(status).toBe(202);
    expect(body).toMatchObject({ recorded: false, heard: spokenTexts.unknownNumber(t.ctx.config.publicUrl) });
    expect(await voiceCall(t, body.call_sid)).toBeUndefined();
  });

  it('refuses a call without a number', async () => {
    const form = new FormData();
    form.set('said', 'hello');
    const res = await fetch(`${base}/api/dev/phone/calls`, { method: 'POST', body: form });
    expect(res.status).toBe(400);
  });
});
