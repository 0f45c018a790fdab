import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { buildUser, uniquePhone } from '../test/factories';
import { inboundProcessingSettled } from './inbound-job';
import { EMPTY_TWIML } from './routes';
import {
  buildSmsTestApp,
  inboundRow,
  JOURNAL_NUMBER,
  journalOf,
  mmsFields,
  newMessageSid,
  postTwilioWebhook,
  PUBLIC_URL,
  refuseInboundTexts,
  textJournal,
  twilioSignature,
  TWILIO_SID,
  type FakeMediaHost,
  type SmsTestApp,
  withTwilioApp,
} from '../test/sms';

describe('POST /webhooks/twilio/sms with Twilio', () => {
  let mediaHost: FakeMediaHost;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ media: mediaHost, t } = app));

  const fields = (from: string, body: string) => ({ MessageSid: newMessageSid(), AccountSid: TWILIO_SID, From: from, To: JOURNAL_NUMBER, Body: body, NumMedia: '0' });

  it('refuses a request with a bad signature and records nothing', async () => {
    const params = fields(uniquePhone(), 'hello');
    const res = await postTwilioWebhook(t, '/webhooks/twilio/sms', params, 'bm90IGEgc2lnbmF0dXJl');
    expect(res.statusCode).toBe(403);
    expect(await inboundRow(t, params.MessageSid)).toBeUndefined();
  });

  it('refuses a request without a signature', async () => {
    const res = await postTwilioWebhook(t, '/webhooks/twilio/sms', fields(uniquePhone(), 'hello'), null);
    expect(res.statusCode).toBe(403);
  });

  it('refuses a request whose fields were changed after signing', async () => {
    const params = fields(uniquePhone(), 'hello');
    const res = await t.app.inject({
      method: 'POST',
      url: '/webhooks/twilio/sms',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(`${PUBLIC_URL}/webhooks/twilio/sms`, params),
      },
      payload: new URLSearchParams({ ...params, Body: 'tampered' }).toString(),
    });
    expect(res.statusCode).toBe(403);
  });

  it('answers a signed text with empty TwiML, records it encrypted until it is processed, then forgets it', async () => {
    const from = uniquePhone();
    const sid = newMessageSid();
    const res = await postTwilioWebhook(t, '/webhooks/twilio/sms', { MessageSid: sid, AccountSid: TWILIO_SID, From: from, To: JOURNAL_NUMBER, Body: 'a secret thought', NumMedia: '0' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    expect(res.body).toBe(EMPTY_TWIML);
    const row = await inboundRow(t, sid);
    expect(row).toMatchObject({ direction: 'inbound', from_number: from, to_number: JOURNAL_NUMBER });
    expect(row!.body).toMatch(/^ENC:/);
    expect(row!.body).not.toContain('secret');
    expect(t.ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, row!.body!)).toBe('a secret thought');
    // A text from a number no account holds: answered with the sign-up hint, and nothing it said is kept.
    await inboundProcessingSettled(t.ctx);
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 1, kind: 'unknown_number', body: null, media: null });
  });

  it('fetches MMS media into the journal, then forgets the links to them with the body', async () => {
    const user = await buildUser(t);
    const urls = [mediaHost.photoUrl(), mediaHost.photoUrl()];
    const before = mediaHost.requests.length;
    const { sid } = await textJournal(t, user.phone, 'look', mmsFields(urls));
    // The links lead to the photos at the provider: once the journal holds them, they go.
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 1, body: null, media: null });
    expect(mediaHost.requests.length - before).toBe(2);
    const [entry] = await journalOf(t, user.id);
    expect(entry).toMatchObject({ source: 'sms', content: 'look' });
    expect(entry!.photos.map((p) => p.mime_type)).toEqual(['image/png', 'image/png']);
  });

  it('processes a redelivered MessageSid once and acknowledges the duplicate', async () => {
    const user = await buildUser(t);
    const params = fields(user.phone, 'only once');
    const first = await postTwilioWebhook(t, '/webhooks/twilio/sms', params);
    const second = await postTwilioWebhook(t, '/webhooks/twilio/sms', params);
    await inboundProcessingSettled(t.ctx);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(EMPTY_TWIML);
    expect((await journalOf(t, user.id)).map((e) => e.content)).toEqual(['only once']);
    const rows = await t.ctx.db.selectFrom('sms_messages').select('id').where('provider_message_id', '=', params.MessageSid).execute();
    expect(rows).toHaveLength(1);
  });

  it('acknowledges nothing the database did not take, so Twilio delivers it again', async () => {
    const user = await buildUser(t);
    const params = fields(user.phone, 'kept on the second try');
    const accept = await refuseInboundTexts(t.ctx);
    try {
      expect((await postTwilioWebhook(t, '/webhooks/twilio/sms', params)).statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await accept();
    }
    expect((await postTwilioWebhook(t, '/webhooks/twilio/sms', params)).statusCode).toBe(200);
    await inboundProcessingSettled(t.ctx);
    expect((await journalOf(t, user.id)).map((e) => e.content)).toEqual(['kept on the second try']);
  });

  it('answers 400 when Twilio fields are missing', async () => {
    const res = await postTwilioWebhook(t, '/webhooks/twilio/sms', { AccountSid: TWILIO_SID, Body: 'x' });
    expect(res.statusCode).toBe(400);
  });
});

describe('POST /webhooks/twilio/sms with the simulator', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());

  it('accepts an unsigned text (development only)', async () => {
    const from = uniquePhone();
    const params = { MessageSid: newMessageSid(), From: from, To: JOURNAL_NUMBER, Body: 'hi' };
    const res = await postTwilioWebhook(t, '/webhooks/twilio/sms', params, null);
    await inboundProcessingSettled(t.ctx);
    expect(res.statusCode).toBe(200);
    expect((await inboundRow(t, params.MessageSid))!.processed).toBe(1);
  });
});
