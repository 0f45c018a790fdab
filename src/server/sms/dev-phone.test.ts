import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { buildUser, uniquePhone } from '../test/factories';
import { inboundProcessingSettled } from './inbound-job';
import { sendDueMessages } from './outbound';
import { buildSmsTestApp, inboundRow, profileOf, startFakeTwilio, type SmsTestApp } from '../test/sms';

describe('the dev phone (/api/dev/phone)', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());

  const send = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/dev/phone/send', payload: payload as object });
  const conversation = (phone: string) => t.app.inject({ method: 'GET', url: `/api/dev/phone/messages?phone=${encodeURIComponent(phone)}` });

  it('sends through the webhook pipeline and shows both sides of the conversation', async () => {
    const phone = uniquePhone();
    const res = await send({ from: phone, body: 'hello?' });
    expect(res.statusCode).toBe(200);
    const { messageSid } = res.json() as { messageSid: string };
    await inboundProcessingSettled(t.ctx);
    expect(await inboundRow(t, messageSid)).toMatchObject({ processed: 1, kind: 'unknown_number', from_number: phone, to_number: '+15555550100' });
    await sendDueMessages(t.ctx);

    const view = await conversation(phone);
    expect(view.statusCode).toBe(200);
    const body = view.json() as { phone: string; journalNumber: string; messages: Array<{ direction: string; body: string }> };
    expect(body.phone).toBe(phone);
    expect(body.journalNumber).toBe('+15555550100');
    expect(body.messages.map((m) => m.direction)).toEqual(['sent', 'received']);
    expect(body.messages[0]!.body).toBe('hello?');
    expect(body.messages[1]!.body).toContain('/sign-up');
  });

  it('verifies a phone when it texts YES', async () => {
    const user = await buildUser(t, { verified: false });
    await send({ from: user.phone.slice(2), body: 'YES' });
    await inboundProcessingSettled(t.ctx);
    expect((await profileOf(t, user.id)).phone_verified).toBe(1);
  });

  it('accepts the number in any common US format', async () => {
    const res = await conversation('(202) 555-0143');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ phone: '+12025550143', messages: [] });
  });

  it('explains what is wrong with the input', async () => {
    const bad = async (payload: unknown, message: string) => {
      const res = await send(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'INVALID_INPUT', message } });
    };
    await bad({ body: 'hi' }, messages.devPhone.phoneRequired);
    await bad({ from: '12345', body: 'hi' }, messages.signUp.invalidPhone);
    await bad({ from: uniquePhone() }, messages.devPhone.bodyRequired);
    await bad({ from: uniquePhone(), body: '   ' }, messages.devPhone.bodyRequired);
    await bad({ from: uniquePhone(), body: 'x'.repeat(1601) }, messages.devPhone.bodyTooLong);
    const res = await t.app.inject({ method: 'GET', url: '/api/dev/phone/messages' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { message: messages.devPhone.phoneRequired } });
  });
});

describe('the dev phone with Twilio', () => {
  it('does not exist', async () => {
    const twilio = await startFakeTwilio();
    const t = await buildSmsTestApp({ twilio });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/dev/phone/send', payload: { from: uniquePhone(), body: 'hi' } });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
      await twilio.close();
    }
  });
});
