import { describe, expect, it } from 'vitest';
import { buildUser, uniquePhone } from '../test/factories';
import { enqueueSms, sendDueMessages } from './outbound';
import { buildSmsTestApp, type FakeTwilio, outboundTo, profileOf, PUBLIC_URL, type SmsTestApp, withTwilioApp } from '../test/sms';

describe('the outbound sender', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, t } = app));

  const queue = (to: string, body = 'Time to write.', extra: { kind?: string; userId?: string | null; dedupeKey?: string } = {}) =>
    enqueueSms(t.ctx, { userId: extra.userId ?? null, to, body, kind: extra.kind ?? 'reminder', dedupeKey: extra.dedupeKey });

  it('sends a queued text through Twilio and records the provider id, status and segments', async () => {
    const to = uniquePhone();
    await queue(to, 'Time to write.');
    await sendDueMessages(t.ctx);
    const [sent] = twilio.sentTo(to);
    expect(sent).toMatchObject({ body: 'Time to write.', from: '+15555550100', statusCallback: `${PUBLIC_URL}/webhooks/twilio/status` });
    const [row] = await outboundTo(t, to);
    expect(row).toMatchObject({ status: 'queued', provider_message_id: sent!.sid, segments: 1, attempts: 1, error_code: null });
    expect(row!.body).toMatch(/^ENC:/);
  });

  it('counts segments the way carriers bill them', async () => {
    const to = uniquePhone();
    await queue(to, 'x'.repeat(161));
    await queue(to, 'café ✓ '.repeat(12));
    await sendDueMessages(t.ctx);
    expect((await outboundTo(t, to)).map((r) => r.segments).sort()).toEqual([2, 2]);
  });

  it('sends a text once even when the same dedupe key is queued twice', async () => {
    const to = uniquePhone();
    expect((await queue(to, 'one', { dedupeKey: `test:${to}` })).queued).toBe(true);
    expect((await queue(to, 'two', { dedupeKey: `test:${to}` })).queued).toBe(false);
    await sendDueMessages(t.ctx);
    expect(twilio.sentTo(to).map((m) => m.body)).toEqual(['one']);
  });

  it('claims each text once when two instances send at the same time', async () => {
    const second = await buildSmsTestApp({ twilio, sameDatabaseAs: t });
    try {
      const to = uniquePhone();
      for (let i = 0; i < 12; i++) await queue(to, `text ${i}`);
      const [a, b] = await Promise.all([sendDueMessages(t.ctx), sendDueMessages(second.ctx)]);
      expect(a.sent + b.sent).toBe(12);
      const bodies = twilio.sentTo(to).map((m) => m.body);
      expect(bodies).toHaveLength(12);
      expect(new Set(bodies).size).toBe(12);
    } finally {
      await second.close();
    }
  });

  it('retries a transient failure with backoff, then sends', async () => {
    const to = uniquePhone();
    await queue(to);
    twilio.failNext({ status: 503 });
    expect(await sendDueMessages(t.ctx)).toMatchObject({ retrying: 1, sent: 0 });
    let [row] = await outboundTo(t, to);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row!.error_message).toMatch(/503/);

    expect((await sendDueMessages(t.ctx)).sent).toBe(0); // not yet due
    t.clock.advance(11_000);
    await sendDueMessages(t.ctx);
    [row] = await outboundTo(t, to);
    expect(row).toMatchObject({ status: 'queued', attempts: 2, error_message: null });
    expect(twilio.sentTo(to)).toHaveLength(1);
  });

  it('does not retry a permanent refusal', async () => {
    const to = uniquePhone();
    await queue(to);
    twilio.failNext({ status: 400, code: 21211 });
    expect(await sendDueMessages(t.ctx)).toMatchObject({ failed: 1 });
    expect((await outboundTo(t, to))[0]).toMatchObject({ status: 'failed', error_code: '21211', attempts: 1 });
  });

  it('marks the user opted out when Twilio refuses with 21610', async () => {
    const user = await buildUser(t);
    await queue(user.phone, 'Time to write.', { userId: user.id });
    twilio.failNext({ status: 400, code: 21610 });
    await sendDueMessages(t.ctx);
    expect((await profileOf(t, user.id)).is_opted_out).toBe(1);
    expect((await outboundTo(t, user.phone))[0]).toMatchObject({ status: 'failed', error_code: '21610' });
  });

  it('sends an opted-out user no automated text, but still the texts they asked for', async () => {
    const user = await buildUser(t);
    await t.ctx.db.updateTable('profiles').set({ is_opted_out: 1 }).where('id', '=', user.id).execute();
    await queue(user.phone, 'reminder', { userId: user.id, kind: 'reminder' });
    await queue(user.phone, 'hint', { userId: null, kind: 'signup_hint' });
    await queue(user.phone, 'help', { userId: user.id, kind: 'help' });
    await queue(user.phone, 'bye', { userId: user.id, kind: 'opt_out_confirmation' });
    await queue(user.phone, 'verify', { userId: user.id, kind: 'verification' });
    expect(await sendDueMessages(t.ctx)).toMatchObject({ sent: 3, skipped: 2 });
    expect(twilio.sentTo(user.phone).map((m) => m.body).sort()).toEqual(['bye', 'help', 'verify']);
    const skipped = (await outboundTo(t, user.phone)).filter((r) => r.status === 'skipped').map((r) => r.kind).sort();
    expect(skipped).toEqual(['reminder', 'signup_hint']);
  });

  it('offers again a text whose sender died mid-send', async () => {
    const to = uniquePhone();
    const { id } = await queue(to);
    await t.ctx.db.updateTable('sms_messages').set({ status: 'sending', claimed_at: t.clock.now().toISOString() }).where('id', '=', id).execute();
    await sendDueMessages(t.ctx);
    expect(twilio.sentTo(to)).toHaveLength(0);
    t.clock.advance(3 * 60_000);
    await sendDueMessages(t.ctx);
    expect(twilio.sentTo(to)).toHaveLength(1);
  });
});
