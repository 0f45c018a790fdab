import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, uniquePhone } from '../test/factories';
import { enqueueSms, sendDueMessages } from './outbound';
import { MAX_RETRY_MS } from './outbound-retry';
import { redactProviderCopies } from './redact';
import {
  buildSmsTestApp,
  type FakeMediaHost,
  type FakeTwilio,
  inboundRow,
  mmsFields,
  outboundTo,
  postTwilioWebhook,
  type SmsTestApp,
  startFakeMediaHost,
  startFakeTwilio,
  textJournal,
  TWILIO_SID,
  withTwilioApp,
} from '../test/sms';

describe("redacting Twilio's copies", () => {
  let twilio: FakeTwilio;
  let media: FakeMediaHost;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, media, t } = app));

  /** A text as Twilio holds it, then delivered to our webhook and processed. */
  const textIn = async (from: string, body: string, photos = 0) => {
    const copy = twilio.receive({ from, body, media: photos });
    const urls = Array.from({ length: photos }, () => media.photoUrl());
    await textJournal(t, from, body, { MessageSid: copy.sid, ...(photos ? mmsFields(urls) : {}) });
    return copy;
  };
  /** Sends a queued text; answers Twilio's copy of it. */
  const sendOut = async (to: string, body: string) => {
    await enqueueSms(t.ctx, { userId: null, to, body, kind: 'command_reply' });
    await sendDueMessages(t.ctx);
    return twilio.sentTo(to).at(-1)!;
  };
  const report = (messageSid: string, status: string) =>
    postTwilioWebhook(t, '/webhooks/twilio/status', { AccountSid: TWILIO_SID, MessageSid: messageSid, MessageStatus: status });

  it('erases the body and photos of an inbound text at Twilio once it is in the journal', async () => {
    t.clock.set(new Date('2026-07-01T21:00:00Z'));
    const user = await buildUser(t);
    const copy = await textIn(user.phone, 'Walked by the river with Sam.', 2);
    expect((await inboundRow(t, copy.sid))!.processed).toBe(1);
    expect(copy.body).toBe('Walked by the river with Sam.');

    await redactProviderCopies(t.ctx);
    expect(copy.body).toBe('');
    expect(copy.media).toEqual([]);
    expect((await inboundRow(t, copy.sid))!.redacted_at).toBe('2026-07-01T21:00:00.000Z');
    // Done once: the next run asks Twilio nothing more about it.
    const asked = () => twilio.requests.filter((r) => r.path.includes(copy.sid)).length;
    const before = asked();
    await redactProviderCopies(t.ctx);
    expect(asked()).toBe(before);
  });

  it('erases an outbound text once Twilio reports it delivered or failed, never while it is on its way', async () => {
    t.clock.set(new Date('2026-07-02T21:00:00Z'));
    const delivered = await sendOut(uniquePhone(), 'Added to today.');
    const undelivered = await sendOut(uniquePhone(), 'Added to yesterday.');
    await redactProviderCopies(t.ctx);
    expect([delivered.body, undelivered.body]).toEqual(['Added to today.', 'Added to yesterday.']);

    await report(delivered.sid, 'delivered');
    await report(undelivered.sid, 'undelivered');
    await redactProviderCopies(t.ctx);
    expect([delivered.body, undelivered.body]).toEqual(['', '']);
    expect((await outboundTo(t, delivered.to))[0]).toMatchObject({ status: 'delivered', redacted_at: '2026-07-02T21:00:00.000Z' });
  });

  it('erases an outbound text whose final report never comes a day after it went out', async () => {
    t.clock.set(new Date('2026-07-03T21:00:00Z'));
    const sent = await sendOut(uniquePhone(), 'Reminder set for 9 PM.');
    t.clock.advance(23 * 3_600_000);
    await redactProviderCopies(t.ctx);
    expect(sent.body).toBe('Reminder set for 9 PM.');
    t.clock.advance(3_600_000);
    await redactProviderCopies(t.ctx);
    expect(sent.body).toBe('');
  });

  it('tries again after Twilio fails, and takes a message Twilio no longer has as done', async () => {
    t.clock.set(new Date('2026-07-04T21:00:00Z'));
    const user = await buildUser(t);
    const copy = await textIn(user.phone, 'Fireworks from the roof.');
    const gone = await textIn(user.phone, 'A second text.');
    twilio.outage({ status: 500, code: 20500 });
    expect(await redactProviderCopies(t.ctx)).toMatchObject({ retrying: 2 });
    twilio.outage(null);
    await redactProviderCopies(t.ctx);
    expect(copy.body).toBe('Fireworks from the roof.'); // not due again yet

    // Twilio deleted the second message meanwhile (a 404 from now on).
    await t.ctx.db.updateTable('sms_messages').set({ provider_message_id: 'SM' + '0'.repeat(32) }).where('provider_message_id', '=', gone.sid).execute();
    t.clock.advance(MAX_RETRY_MS);
    expect(await redactProviderCopies(t.ctx)).toMatchObject({ redacted: 2 });
    expect(copy.body).toBe('');
  });
});

describe('with TWILIO_REDACT=false', () => {
  let twilio: FakeTwilio;
  let media: FakeMediaHost;
  let t: SmsTestApp;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    media = await startFakeMediaHost();
    t = await buildSmsTestApp({ twilio, env: { TWILIO_REDACT: 'false' } });
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
    await media.close();
  });

  it("leaves Twilio's copies alone", async () => {
    t.clock.set(new Date('2026-07-05T21:00:00Z'));
    const user = await buildUser(t);
    const copy = twilio.receive({ from: user.phone, body: 'Quiet day.' });
    await textJournal(t, user.phone, 'Quiet day.', { MessageSid: copy.sid });
    await enqueueSms(t.ctx, { userId: null, to: uniquePhone(), body: 'Added to today.', kind: 'command_reply' });
    await sendDueMessages(t.ctx);
    t.clock.advance(48 * 3_600_000);
    expect(await redactProviderCopies(t.ctx)).toEqual({ redacted: 0, retrying: 0, gaveUp: 0 });
    expect(copy.body).toBe('Quiet day.');
    expect(twilio.requests.filter((r) => r.method !== 'POST' || !r.path.endsWith('/Messages.json'))).toEqual([]);
  });
});
