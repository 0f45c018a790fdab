import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uniquePhone } from '../test/factories';
import { enqueueSms, sendDueMessages } from './outbound';
import { MAX_RETRY_MS } from './outbound-retry';
import { releaseUnfinishedSends, stopSending } from './sends-in-flight';
import { buildSmsTestApp, outboundTo, startFakeTwilio, type FakeTwilio, type SmsTestApp } from '../test/sms';

// A request to Twilio that goes unanswered counts as such after this long (15 s in the app).
const TIMEOUT_MS = 300;

describe('a send whose answer never came', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await buildSmsTestApp({ twilio, twilioTimeoutMs: TIMEOUT_MS });
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  const queue = (to: string, body = 'Your entry was added.') => enqueueSms(t.ctx, { userId: null, to, body, kind: 'command_reply' });
  const listRequests = () => twilio.requests.filter((r) => r.method === 'GET' && r.path.includes('/Messages.json?'));
  /** Sends, then keeps sending until nothing is waiting (the clock moved past each backoff). */
  const sendAll = async () => {
    await sendDueMessages(t.ctx);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(MAX_RETRY_MS);
      await sendDueMessages(t.ctx);
    }
  };

  it('is looked up at Twilio, and not sent again, when Twilio made the message and then hung', async () => {
    t.clock.set(new Date('2026-08-03T20:00:00Z'));
    const to = uniquePhone();
    await queue(to);
    twilio.acceptThenHangNext();
    expect(await sendDueMessages(t.ctx)).toMatchObject({ retrying: 1 });
    // Looked up from the moment of the unanswered try.
    expect((await outboundTo(t, to))[0]).toMatchObject({ status: 'pending', unconfirmed_since: '2026-08-03T20:00:00.000Z' });
    await sendAll();

    expect(twilio.sentTo(to)).toHaveLength(1);
    const [row] = await outboundTo(t, to);
    expect(row).toMatchObject({ status: 'sent', provider_message_id: twilio.sentTo(to)[0]!.sid, unconfirmed_since: null, error_message: null });
    const [lookup] = listRequests().filter((r) => r.path.includes(encodeURIComponent(to)));
    expect(new URL(lookup!.path, 'http://twilio.test').searchParams.get('DateSent>')).toBe('2026-08-03');
  });

  it('is looked up, and not sent again, when the connection dropped after Twilio made the message', async () => {
    t.clock.set(new Date('2026-08-04T20:00:00Z'));
    const to = uniquePhone();
    await queue(to);
    twilio.acceptThenDropNext();
    expect(await sendDueMessages(t.ctx)).toMatchObject({ retrying: 1 });
    await sendAll();
    expect(twilio.sentTo(to)).toHaveLength(1);
    expect((await outboundTo(t, to))[0]).toMatchObject({ provider_message_id: twilio.sentTo(to)[0]!.sid });
  });

  it('is found while Twilio still holds the message in its queue, with no date sent yet', async () => {
    t.clock.set(new Date('2026-08-05T20:00:00Z'));
    const to = uniquePhone();
    await queue(to);
    twilio.holdQueued = true;
    try {
      twilio.acceptThenHangNext();
      await sendAll();
    } finally {
      twilio.holdQueued = false;
    }
    expect(twilio.sentTo(to)).toHaveLength(1);
    expect((await outboundTo(t, to))[0]).toMatchObject({ status: 'queued', provider_message_id: twilio.sentTo(to)[0]!.sid });
  });

  it('is sent again, once, when Twilio never made the message', async () => {
    t.clock.set(new Date('2026-08-06T20:00:00Z'));
    const to = uniquePhone();
    await queue(to);
    twilio.hangNext();
    expect(await sendDueMessages(t.ctx)).toMatchObject({ retrying: 1 });
    expect(twilio.sentTo(to)).toHaveLength(0);
    await sendAll();
    expect(twilio.sentTo(to)).toHaveLength(1);
    expect((await outboundTo(t, to))[0]).toMatchObject({ status: 'queued', provider_message_id: twilio.sentTo(to)[0]!.sid });
  });

  it('does not take an earlier text with the same words to the same number for its own', async () => {
    t.clock.set(new Date('2026-08-07T20:00:00Z'));
    const to = uniquePhone();
    await queue(to, 'Nothing to undo.');
    await sendDueMessages(t.ctx);
    t.clock.advance(20_000);
    await queue(to, 'Nothing to undo.');
    twilio.hangNext();
    await sendAll();
    const sids = twilio.sentTo(to).map((m) => m.sid);
    expect(sids).toHaveLength(2);
    expect((await outboundTo(t, to)).map((r) => r.provider_message_id)).toEqual(sids);
  });

  it('waits while Twilio is down, then finds the message instead of sending it again', async () => {
    t.clock.set(new Date('2026-08-08T20:00:00Z'));
    const to = uniquePhone();
    await queue(to);
    twilio.acceptThenHangNext();
    await sendDueMessages(t.ctx);
    twilio.outage({ status: 503 });
    for (let i = 0; i < 5; i++) {
      t.clock.advance(MAX_RETRY_MS);
      expect(await sendDueMessages(t.ctx)).toMatchObject({ retrying: 1 });
    }
    twilio.outage(null);
    await sendAll();
    expect(twilio.sentTo(to)).toHaveLength(1);
    expect((await outboundTo(t, to))[0]!.provider_message_id).toBe(twilio.sentTo(to)[0]!.sid);
  });
});

describe('sends another instance left unanswered', () => {
  let twilio: FakeTwilio;
  let a: SmsTestApp;
  let b: SmsTestApp;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    a = await buildSmsTestApp({ twilio, twilioTimeoutMs: 60_000 });
    b = await buildSmsTestApp({ twilio, sameDatabaseAs: a });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await twilio.close();
  });
  const at = (instant: string) => {
    a.clock.set(new Date(instant));
    b.clock.set(new Date(instant));
  };

  it('are looked up by the instance that takes them over at shutdown, and not sent twice', async () => {
    at('2026-09-01T20:00:00Z');
    const phones = [uniquePhone(), uniquePhone(), uniquePhone()];
    for (const to of phones) await enqueueSms(a.ctx, { userId: null, to, body: 'Paused for 3 days.', kind: 'command_reply' });
    twilio.acceptThenHangNext(3);
    const sending = sendDueMessages(a.ctx);
    await vi.waitFor(() => expect(twilio.sent.filter((m) => phones.includes(m.to))).toHaveLength(3));
    stopSending(a.ctx);
    expect(await releaseUnfinishedSends(a.ctx)).toBe(3);

    expect(await sendDueMessages(b.ctx)).toMatchObject({ sent: 3 });
    for (const to of phones) {
      expect(twilio.sentTo(to)).toHaveLength(1);
      expect((await outboundTo(b, to))[0]!.provider_message_id).toBe(twilio.sentTo(to)[0]!.sid);
    }
    await twilio.close();
    await sending;
  });
});

describe('a send whose instance died mid-send', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await buildSmsTestApp({ twilio });
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  it('is looked up once its claim is stale, and not sent again when Twilio has it', async () => {
    t.clock.set(new Date('2026-09-02T20:00:00Z'));
    const to = uniquePhone();
    const { id } = await enqueueSms(t.ctx, { userId: null, to, body: 'Reminder set for 9:30 PM.', kind: 'command_reply' });
    // The dead instance had claimed the text and Twilio had made the message; no answer was recorded.
    const now = t.clock.now().toISOString();
    await t.ctx.db.updateTable('sms_messages').set({ status: 'sending', claimed_at: now, attempts: 1 }).where('id', '=', id).execute();
    await fetch(`${twilio.url}/2010-04-01/Accounts/AC0/Messages.json`, { method: 'POST', body: new URLSearchParams({ To: to, Body: 'Reminder set for 9:30 PM.' }) });

    t.clock.advance(3 * 60_000);
    expect(await sendDueMessages(t.ctx)).toMatchObject({ sent: 1 });
    expect(twilio.sentTo(to)).toHaveLength(1);
    expect((await outboundTo(t, to))[0]!.provider_message_id).toBe(twilio.sentTo(to)[0]!.sid);
  });
});
