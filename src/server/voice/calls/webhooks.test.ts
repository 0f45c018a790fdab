import { beforeEach, describe, expect, it } from 'vitest';
import { buildUser, uniquePhone } from '../../test/factories';
import { callWav, newCallSid, postIncomingCall, postRecordingCallback, voiceCall, voiceCallsOf } from '../../test/calls';
import { postTwilioWebhook, PUBLIC_URL, twilioSignature, TWILIO_SID, withTwilioApp, type FakeTwilio, type SmsTestApp } from '../../test/sms';
import { spokenTexts } from './spoken';
import { escapeXml, greetAndRecord } from './twiml';

// Noon in New York, the test users' zone; every test pins the clock here.
const NOON_NEW_YORK = new Date('2026-06-15T16:00:00Z');

const RECORD_TWIML =
  '<?xml version="1.0" encoding="UTF-8"?><Response><Say>Jotline. Talk after the tone, then hang up.</Say>' +
  `<Record maxLength="300" playBeep="true" trim="trim-silence" timeout="5" recordingStatusCallback="${PUBLIC_URL}/webhooks/twilio/recording" ` +
  `recordingStatusCallbackEvent="completed" action="${PUBLIC_URL}/webhooks/twilio/voice?after=recording"/></Response>`;

const hangUpWith = (sentence: string) => `<?xml version="1.0" encoding="UTF-8"?><Response><Say>${escapeXml(sentence)}</Say><Hangup/></Response>`;

describe('POST /webhooks/twilio/voice', () => {
  let t: SmsTestApp;
  let twilio: FakeTwilio;
  withTwilioApp((app) => ({ t, twilio } = app));
  beforeEach(() => t.clock.set(NOON_NEW_YORK));

  it('refuses a call without a valid signature (403, as texts) and keeps nothing', async () => {
    const user = await buildUser(t);
    const forged = await postIncomingCall(t, user.phone, { signature: 'bm90IGEgc2lnbmF0dXJl' });
    const unsigned = await postIncomingCall(t, user.phone, { signature: null });
    expect([forged.res.statusCode, unsigned.res.statusCode]).toEqual([403, 403]);
    expect(await voiceCallsOf(t, user.id)).toEqual([]);
  });

  it('greets a verified caller with access, records up to VOICE_MAX_SECONDS, and keeps the call by CallSid', async () => {
    const user = await buildUser(t);
    const { res, callSid } = await postIncomingCall(t, user.phone);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    expect(res.body).toBe(RECORD_TWIML);
    expect(await voiceCall(t, callSid)).toMatchObject({ user_id: user.id, from_number: user.phone, local_date: '2026-06-15', status: 'calling', recording_sid: null });
    // Twilio delivers again: the same answer, the same call.
    const again = await postIncomingCall(t, user.phone, { callSid });
    expect(again.res.body).toBe(RECORD_TWIML);
    expect(await voiceCallsOf(t, user.id)).toHaveLength(1);
  });

  it('says "Saved." and hangs up once the recording ends (the action, signed with its query)', async () => {
    const user = await buildUser(t);
    const { callSid } = await postIncomingCall(t, user.phone);
    const { res } = await postIncomingCall(t, user.phone, { callSid, path: '/webhooks/twilio/voice?after=recording' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(hangUpWith('Saved.'));
    // A signature over the URL without the query does not pass for it.
    const params = { CallSid: callSid, AccountSid: TWILIO_SID, From: user.phone };
    const wrong = await postTwilioWebhook(t, '/webhooks/twilio/voice?after=recording', params, twilioSignature(`${PUBLIC_URL}/webhooks/twilio/voice`, params));
    expect(wrong.statusCode).toBe(403);
  });

  it('tells an unknown number to sign up, and keeps nothing', async () => {
    const phone = uniquePhone();
    const { res, callSid } = await postIncomingCall(t, phone);
    expect(res.body).toBe(hangUpWith(spokenTexts.unknownNumber(PUBLIC_URL)));
    expect(res.body).toContain('Sign up at jotline.test');
    expect(await voiceCall(t, callSid)).toBeUndefined();
  });

  it('tells the owner of an unverified number to reply YES, and keeps nothing', async () => {
    const user = await buildUser(t, { verified: false });
    const { res, callSid } = await postIncomingCall(t, user.phone);
    expect(res.body).toBe(hangUpWith(spokenTexts.unverified));
    expect(res.body).toContain('Reply YES');
    expect(await voiceCall(t, callSid)).toBeUndefined();
  });

  it('tells a caller whose access ended to subscribe, and keeps nothing', async () => {
    const user = await buildUser(t, { trialEnd: new Date(NOON_NEW_YORK.getTime() - 60_000) });
    const { res, callSid } = await postIncomingCall(t, user.phone);
    expect(res.body).toBe(hangUpWith(spokenTexts.noAccess(PUBLIC_URL)));
    expect(res.body).toContain('Subscribe at jotline.test');
    expect(await voiceCall(t, callSid)).toBeUndefined();
  });

  it('refuses the 11th call of the caller\'s day, and takes calls again the next day in their zone', async () => {
    // 23:30 in New York is already tomorrow in UTC: the day is the caller's.
    t.clock.set(new Date('2026-06-16T03:00:00Z'));
    const user = await buildUser(t);
    for (let i = 0; i < 10; i++) expect((await postIncomingCall(t, user.phone)).res.body).toBe(RECORD_TWIML);
    const eleventh = await postIncomingCall(t, user.phone);
    expect(eleventh.res.body).toBe(hangUpWith(spokenTexts.tooManyCalls(10)));
    expect(await voiceCall(t, eleventh.callSid)).toBeUndefined();
    expect((await voiceCallsOf(t, user.id)).map((c) => c.local_date)).toEqual(Array(10).fill('2026-06-15'));
    // A redelivery of a call already taken is still answered with the recording.
    const first = (await voiceCallsOf(t, user.id))[0]!;
    expect((await postIncomingCall(t, user.phone, { callSid: first.call_sid })).res.body).toBe(RECORD_TWIML);
    // 01:00 in New York: a new day.
    t.clock.set(new Date('2026-06-16T05:00:00Z'));
    expect((await postIncomingCall(t, user.phone)).res.body).toBe(RECORD_TWIML);
  });

  it('escapes what it puts into TwiML', () => {
    const twiml = greetAndRecord({ greeting: 'Say <"this"> & that\'s it', maxSeconds: 60, statusCallback: 'https://a.test/x?a=1&b=<2>', action: 'https://a.test/"y"' });
    expect(twiml).toContain('<Say>Say &lt;&quot;this&quot;&gt; &amp; that&apos;s it</Say>');
    expect(twiml).toContain('recordingStatusCallback="https://a.test/x?a=1&amp;b=&lt;2&gt;"');
    expect(twiml).toContain('action="https://a.test/&quot;y&quot;"');
  });

  describe('POST /webhooks/twilio/recording', () => {
    it('refuses a callback without a valid signature and keeps nothing', async () => {
      const user = await buildUser(t);
      const { callSid } = await postIncomingCall(t, user.phone);
      const recording = twilio.record(await callWav(1));
      const res = await postRecordingCallback(t, callSid, recording, { signature: 'bm90IGEgc2lnbmF0dXJl' });
      expect(res.statusCode).toBe(403);
      expect(await voiceCall(t, callSid)).toMatchObject({ recording_sid: null, status: 'calling' });
    });

    it('keeps a completed recording on its call at once (204), due for download; a redelivery changes nothing', async () => {
      const user = await buildUser(t);
      const { callSid } = await postIncomingCall(t, user.phone);
      const recording = twilio.record(await callWav(1), 1);
      const res = await postRecordingCallback(t, callSid, recording);
      expect(res.statusCode).toBe(204);
      const kept = await voiceCall(t, callSid);
      expect(kept).toMatchObject({ recording_sid: recording.sid, recording_url: recording.url, recording_status: 'completed', recording_duration: 1, status: 'download', next_at: NOON_NEW_YORK.toISOString() });
      t.clock.advance(1_000);
      expect((await postRecordingCallback(t, callSid, recording)).statusCode).toBe(204);
      expect(await voiceCall(t, callSid)).toEqual(kept);
      // Nothing was fetched by the webhook itself.
      expect(recording.downloads).toBe(0);
    });

    it('keeps a recording that did not complete, and does not fetch it', async () => {
      const user = await buildUser(t);
      const { callSid } = await postIncomingCall(t, user.phone);
      const recording = twilio.record(await callWav(1));
      expect((await postRecordingCallback(t, callSid, recording, { status: 'absent' })).statusCode).toBe(204);
      expect(await voiceCall(t, callSid)).toMatchObject({ recording_sid: recording.sid, recording_status: 'absent', status: 'ignored', next_at: null });
    });

    it('answers and ignores a callback for a call or an account it does not know', async () => {
      const user = await buildUser(t);
      const { callSid } = await postIncomingCall(t, user.phone);
      const recording = twilio.record(await callWav(1));
      expect((await postRecordingCallback(t, newCallSid(), recording)).statusCode).toBe(204);
      expect((await postRecordingCallback(t, callSid, recording, { accountSid: 'AC' + '1'.repeat(32) })).statusCode).toBe(204);
      expect(await voiceCall(t, callSid)).toMatchObject({ recording_sid: null, status: 'calling' });
    });
  });
});
