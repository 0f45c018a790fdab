import { describe, expect, it } from 'vitest';
import { buildUser, uniquePhone } from '../test/factories';
import { enqueueSms, sendDueMessages } from './outbound';
import { type FakeTwilio, outboundTo, postTwilioWebhook, profileOf, type SmsTestApp, TWILIO_SID, withTwilioApp } from '../test/sms';

describe('POST /webhooks/twilio/status', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, t } = app));

  /** Sends a text and returns its Twilio sid. */
  const sendOne = async (to: string, userId: string | null = null) => {
    await enqueueSms(t.ctx, { userId, to, body: 'Time to write.', kind: 'reminder' });
    await sendDueMessages(t.ctx);
    return twilio.sentTo(to).at(-1)!.sid;
  };
  const report = (fields: Record<string, string>, signature?: string | null) =>
    postTwilioWebhook(t, '/webhooks/twilio/status', { AccountSid: TWILIO_SID, ...fields }, signature);

  it('records delivery as the callbacks arrive', async () => {
    const to = uniquePhone();
    const sid = await sendOne(to);
    expect((await report({ MessageSid: sid, MessageStatus: 'sent' })).statusCode).toBe(200);
    expect((await outboundTo(t, to))[0]!.status).toBe('sent');
    await report({ MessageSid: sid, MessageStatus: 'delivered' });
    expect((await outboundTo(t, to))[0]!.status).toBe('delivered');
  });

  it('does not step back when callbacks arrive out of order', async () => {
    const to = uniquePhone();
    const sid = await sendOne(to);
    await report({ MessageSid: sid, MessageStatus: 'delivered' });
    await report({ MessageSid: sid, MessageStatus: 'sent' });
    expect((await outboundTo(t, to))[0]!.status).toBe('delivered');
  });

  it('records the error code of a failed text', async () => {
    const to = uniquePhone();
    const sid = await sendOne(to);
    await report({ MessageSid: sid, MessageStatus: 'undelivered', ErrorCode: '30003' });
    expect((await outboundTo(t, to))[0]).toMatchObject({ status: 'undelivered', error_code: '30003' });
  });

  it('marks the user opted out on error 21610', async () => {
    const user = await buildUser(t);
    const sid = await sendOne(user.phone, user.id);
    await report({ MessageSid: sid, MessageStatus: 'failed', ErrorCode: '21610' });
    expect((await profileOf(t, user.id)).is_opted_out).toBe(1);
    expect((await outboundTo(t, user.phone))[0]).toMatchObject({ status: 'failed', error_code: '21610' });
  });

  it('answers 200 for an id it does not know', async () => {
    const res = await report({ MessageSid: 'SM' + 'f'.repeat(32), MessageStatus: 'delivered' });
    expect(res.statusCode).toBe(200);
  });

  it('refuses an unsigned or badly signed callback', async () => {
    const to = uniquePhone();
    const sid = await sendOne(to);
    expect((await report({ MessageSid: sid, MessageStatus: 'failed', ErrorCode: '21610' }, null)).statusCode).toBe(403);
    expect((await report({ MessageSid: sid, MessageStatus: 'failed', ErrorCode: '21610' }, 'AAAA')).statusCode).toBe(403);
    expect((await outboundTo(t, to))[0]!.status).toBe('queued');
  });
});
