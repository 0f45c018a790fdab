import { describe, expect, it } from 'vitest';
import type { UserEvent } from '../events';
import { buildUser, uniquePhone } from '../test/factories';
import { sendDueMessages } from './outbound';
import { type FakeTwilio, inboundRow, journalOf, outboundTo, profileOf, PUBLIC_URL, type SmsTestApp, textJournal, withTwilioApp } from '../test/sms';

describe('who is texting', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, t } = app));

  describe('YES', () => {
    it('verifies a pending phone, tells the open pages and sends the opt-in confirmation', async () => {
      const user = await buildUser(t, { verified: false });
      const events: UserEvent[] = [];
      const unsubscribe = t.ctx.events.subscribe(user.id, (e) => events.push(e));
      const { sid } = await textJournal(t, user.phone, ' yes ');
      unsubscribe();
      await sendDueMessages(t.ctx);

      expect((await profileOf(t, user.id)).phone_verified).toBe(1);
      expect(events).toContainEqual({ type: 'profile.updated', phone_verified: true });
      expect(await inboundRow(t, sid)).toMatchObject({ processed: 1, kind: 'verify', user_id: user.id });
      const [welcome] = twilio.sentTo(user.phone);
      expect(welcome!.body).toMatch(/^Jotline/);
      expect(welcome!.body).toContain('Msg frequency varies, up to 2 msgs/day');
      expect(welcome!.body).toContain('Msg & data rates may apply');
      expect(welcome!.body).toContain('HELP');
      expect(welcome!.body).toContain('STOP');
      expect(await journalOf(t, user.id)).toEqual([]); // YES verified; it is not journal text
    });

    it('opts an opted-out, verified user back in', async () => {
      const user = await buildUser(t);
      await textJournal(t, user.phone, 'STOP');
      await textJournal(t, user.phone, 'YES');
      expect((await profileOf(t, user.id)).is_opted_out).toBe(0);
      expect((await outboundTo(t, user.phone)).map((m) => m.kind).sort()).toEqual(['opt_in_confirmation', 'opt_out_confirmation']);
      expect(await journalOf(t, user.id)).toEqual([]);
    });

    it('is journal text from a verified, subscribed user', async () => {
      const user = await buildUser(t);
      await textJournal(t, user.phone, 'YES');
      expect((await journalOf(t, user.id)).map((e) => [e.source, e.content])).toEqual([['sms', 'YES']]);
      expect(await outboundTo(t, user.phone)).toEqual([]);
    });
  });

  it('asks an unverified user to reply YES, once a day', async () => {
    const user = await buildUser(t, { verified: false });
    const { sid } = await textJournal(t, user.phone, 'hello');
    await textJournal(t, user.phone, 'anyone there?');
    await sendDueMessages(t.ctx);
    const texts = twilio.sentTo(user.phone);
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body).toMatch(/Reply YES/);
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 1, kind: 'unverified', body: null });
    expect(await journalOf(t, user.id)).toEqual([]); // not journal text until the phone is verified
  });

  it('sends an unknown number one sign-up hint a day', async () => {
    const stranger = uniquePhone();
    const { sid } = await textJournal(t, stranger, 'hello?');
    await textJournal(t, stranger, 'hello??');
    await sendDueMessages(t.ctx);
    let texts = twilio.sentTo(stranger);
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body).toContain(`${PUBLIC_URL}/sign-up`);
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 1, kind: 'unknown_number', user_id: null, body: null });

    t.clock.advance(24 * 60 * 60 * 1000);
    await textJournal(t, stranger, 'hello again');
    await sendDueMessages(t.ctx);
    texts = twilio.sentTo(stranger);
    expect(texts).toHaveLength(2);
  });
});
