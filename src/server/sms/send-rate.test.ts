import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePhone } from '../test/factories';
import { enqueueSms, sendDueMessages } from './outbound';
import { takeSendSlots } from './send-rate';
import { buildSmsTestApp, startFakeTwilio, type FakeTwilio, type SmsTestApp } from '../test/sms';

const MESSAGING_SERVICE = 'MG' + 'ab'.repeat(16);

describe('sending at SMS_SEND_RATE', () => {
  let twilio: FakeTwilio;
  let a: SmsTestApp;
  let b: SmsTestApp;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    const env = { SMS_SEND_RATE: '10', TWILIO_MESSAGING_SERVICE_SID: MESSAGING_SERVICE };
    a = await buildSmsTestApp({ twilio, env });
    b = await buildSmsTestApp({ twilio, sameDatabaseAs: a, env });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await twilio.close();
  });
  const at = (ms: number) => {
    a.clock.set(new Date(ms));
    b.clock.set(new Date(ms));
  };

  it('sends at the rate for both instances together, each text once, through the Messaging Service', async () => {
    const start = Date.parse('2026-10-05T00:00:00Z');
    at(start);
    const phones = Array.from({ length: 55 }, () => uniquePhone());
    for (const to of phones) await enqueueSms(a.ctx, { userId: null, to, body: 'Time to write.', kind: 'reminder' });

    // Both instances' senders every tenth of a second, as they wake for the next free slot.
    const perSecond: number[] = [];
    for (let second = 0; second < 6; second++) {
      const before = twilio.sent.length;
      for (let tenth = 0; tenth < 10; tenth++) {
        at(start + second * 1000 + tenth * 100);
        await Promise.all([sendDueMessages(a.ctx), sendDueMessages(b.ctx)]);
      }
      perSecond.push(twilio.sent.length - before);
    }
    // The budget left over from before the queue filled (a quarter second's), then ten a second.
    expect(perSecond).toEqual([12, 10, 10, 10, 10, 3]);
    const sent = twilio.sent.filter((m) => phones.includes(m.to));
    expect(sent.map((m) => m.to).sort()).toEqual([...phones].sort());
    expect(sent[0]).toMatchObject({ messagingServiceSid: MESSAGING_SERVICE, from: '' });
  });

  it('sends scheduled texts in the order they fell due, and replies ahead of them', async () => {
    const start = Date.parse('2026-10-06T00:00:00Z');
    at(start);
    // Queued out of order: due at 19:58, 19:59, 20:00… (minutes before `start`).
    const due = [3, 0, 4, 1, 2].map((minutesEarly) => ({ to: uniquePhone(), dueAt: new Date(start - (5 - minutesEarly) * 60_000) }));
    for (const text of due) await enqueueSms(a.ctx, { userId: null, to: text.to, body: 'Time to write.', kind: 'reminder', dueAt: text.dueAt });
    const reply = uniquePhone();
    at(start + 1);
    await enqueueSms(a.ctx, { userId: null, to: reply, body: 'Reminders paused.', kind: 'command_reply' });
    // Another sender has just used the budget: from here on a slot frees every tenth of a second.
    expect((await takeSendSlots(a.ctx, 1_000, 10)).granted).toBe(3);
    // The two instances in turn, a tenth of a second apart: one text each time.
    for (let i = 0; i < 10; i++) {
      at(start + 1 + (i + 1) * 100);
      await sendDueMessages(i % 2 ? a.ctx : b.ctx);
    }
    const order = twilio.sent.map((m) => m.to).filter((to) => to === reply || due.some((d) => d.to === to));
    const byDueTime = [...due].sort((x, y) => x.dueAt.getTime() - y.dueAt.getTime()).map((d) => d.to);
    expect(order).toEqual([reply, ...byDueTime]);
  });
});

describe('sending at SMS_SEND_RATE after an outage', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await buildSmsTestApp({ twilio, env: { SMS_SEND_RATE: '10' } });
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  it('drops the texts that became pointless without spending the send budget on them', async () => {
    const start = Date.parse('2026-10-07T04:00:00Z');
    t.clock.set(new Date(start));
    // Last night's reminders, hours late, queued before the reminders due now.
    const late = new Date(start - 3 * 3_600_000);
    for (let i = 0; i < 50; i++) {
      await enqueueSms(t.ctx, { userId: null, to: uniquePhone(), body: 'Time to write.', kind: 'reminder', dueAt: late, expiresAt: new Date(late.getTime() + 2 * 3_600_000) });
    }
    const fresh = Array.from({ length: 5 }, () => uniquePhone());
    for (const to of fresh) await enqueueSms(t.ctx, { userId: null, to, body: 'Time to write.', kind: 'reminder', dueAt: new Date(start) });

    // The budget's first slots (a quarter second's) go to texts still worth sending.
    expect(await sendDueMessages(t.ctx)).toMatchObject({ dropped: 50, sent: 3 });
    expect(twilio.sent.map((m) => m.to).every((to) => fresh.includes(to))).toBe(true);
  });
});

describe('sending with the simulator', () => {
  it('is not paced, whatever SMS_SEND_RATE says', async () => {
    const t = await buildSmsTestApp({ env: { SMS_SEND_RATE: '1' } });
    try {
      for (let i = 0; i < 20; i++) await enqueueSms(t.ctx, { userId: null, to: uniquePhone(), body: 'Hello from the simulator.', kind: 'help' });
      expect(await sendDueMessages(t.ctx)).toMatchObject({ sent: 20 });
    } finally {
      await t.close();
    }
  });
});
