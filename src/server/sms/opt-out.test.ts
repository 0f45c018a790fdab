import { describe, expect, it } from 'vitest';
import { buildUser, uniquePhone } from '../test/factories';
import { enqueueSms, sendDueMessages } from './outbound';
import { type FakeTwilio, inboundRow, journalOf, outboundTo, profileOf, type SmsTestApp, textJournal, withTwilioApp } from '../test/sms';
import { SUPPORT_EMAIL, smsTexts } from './texts';

describe('keywords texted to the journal number', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, t } = app));

  it('STOP in any case opts the user out and confirms once', async () => {
    const user = await buildUser(t);
    const { sid } = await textJournal(t, user.phone, 'sToP ');
    await sendDueMessages(t.ctx);
    expect((await profileOf(t, user.id)).is_opted_out).toBe(1);
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 1, kind: 'opt_out', user_id: user.id });
    const texts = twilio.sentTo(user.phone);
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body).toMatch(/unsubscribed/i);
    expect(texts[0]!.body).toMatch(/START/);
    expect(await journalOf(t, user.id)).toEqual([]);
  });

  it('STOP with punctuation, emoji or please, and free-form revocations, opt out with one confirmation', async () => {
    for (const text of ['STOP.', 'Stop!!', 'stop please', 'STOP 🙏', 'stop texting me', 'please unsubscribe me', 'no more texts', 'remove me from this list', 'opt me out']) {
      const user = await buildUser(t);
      const { sid } = await textJournal(t, user.phone, text);
      await sendDueMessages(t.ctx);
      expect((await profileOf(t, user.id)).is_opted_out, text).toBe(1);
      expect(await inboundRow(t, sid), text).toMatchObject({ kind: 'opt_out', processed: 1 });
      expect(twilio.sentTo(user.phone).map((m) => m.body), text).toEqual([smsTexts.optedOut()]);
      expect(await journalOf(t, user.id), text).toEqual([]);
    }
  });

  it('keeps journal sentences that use the same words as journal text', async () => {
    const user = await buildUser(t);
    for (const text of ['I need to stop eating sugar', 'Cancel the trip, we stayed home', 'End of a long week']) await textJournal(t, user.phone, text);
    expect((await profileOf(t, user.id)).is_opted_out).toBe(0);
    const [entry] = await journalOf(t, user.id);
    for (const text of ['I need to stop eating sugar', 'Cancel the trip, we stayed home', 'End of a long week']) expect(entry!.content).toContain(text);
    await sendDueMessages(t.ctx);
    expect(twilio.sentTo(user.phone)).toEqual([]);
  });

  it('stops every automated text at once, confirms before a backlog of scheduled texts, and only once', async () => {
    await sendDueMessages(t.ctx); // nothing of an earlier test's left in the queue
    const user = await buildUser(t);
    const others = await Promise.all(Array.from({ length: 5 }, () => buildUser(t)));
    for (const person of [user, ...others]) {
      await enqueueSms(t.ctx, { userId: person.id, to: person.phone, body: smsTexts.dailyReminder(), kind: 'reminder', dedupeKey: `reminder:${person.id}:test` });
    }
    await textJournal(t, user.phone, 'Stop.');
    await textJournal(t, user.phone, 'STOP');
    // The confirmation is the first text to go, ahead of the reminders queued before it.
    await sendDueMessages(t.ctx, { limit: 1 });
    expect(twilio.sent.at(-1)).toMatchObject({ to: user.phone, body: smsTexts.optedOut() });
    await sendDueMessages(t.ctx);
    expect(twilio.sentTo(user.phone).map((m) => m.body)).toEqual([smsTexts.optedOut()]);
    expect((await outboundTo(t, user.phone)).find((m) => m.kind === 'reminder')).toMatchObject({ status: 'skipped' });
    for (const person of others) expect(twilio.sentTo(person.phone)).toHaveLength(1);
  });

  it('every opt-out word opts out', async () => {
    for (const word of ['STOPALL', 'unsubscribe', 'Cancel', 'end', 'QUIT', 'revoke', 'OptOut']) {
      const user = await buildUser(t);
      await textJournal(t, user.phone, word);
      expect((await profileOf(t, user.id)).is_opted_out, word).toBe(1);
    }
  });

  it('START and UNSTOP opt back in with a confirmation', async () => {
    const user = await buildUser(t);
    await textJournal(t, user.phone, 'STOP');
    await textJournal(t, user.phone, 'start');
    expect((await profileOf(t, user.id)).is_opted_out).toBe(0);
    await textJournal(t, user.phone, 'STOP');
    await textJournal(t, user.phone, 'Unstop');
    expect((await profileOf(t, user.id)).is_opted_out).toBe(0);
    await sendDueMessages(t.ctx);
    const kinds = (await outboundTo(t, user.phone)).map((m) => m.kind).sort();
    expect(kinds).toEqual(['opt_in_confirmation', 'opt_in_confirmation', 'opt_out_confirmation', 'opt_out_confirmation']);
    const optIn = twilio.sentTo(user.phone).find((m) => /resubscribed/i.test(m.body))!;
    expect(optIn.body).toContain('Msg frequency varies, up to 2 msgs/day');
    expect(optIn.body).toContain('Msg & data rates may apply');
  });

  it('HELP and INFO reply with the brand, a support contact and STOP, even when opted out', async () => {
    const user = await buildUser(t);
    await textJournal(t, user.phone, 'STOP');
    await textJournal(t, user.phone, 'help');
    await textJournal(t, user.phone, ' INFO');
    await sendDueMessages(t.ctx);
    const help = twilio.sentTo(user.phone).filter((m) => m.body.includes(SUPPORT_EMAIL));
    expect(help).toHaveLength(2);
    expect(help[0]!.body).toMatch(/^Jotline/);
    expect(help[0]!.body).toContain('STOP');
    expect((await profileOf(t, user.id)).is_opted_out).toBe(1);
  });

  it('a keyword inside a longer text is journal text', async () => {
    const user = await buildUser(t);
    const { sid } = await textJournal(t, user.phone, 'Stop and smell the roses');
    expect((await profileOf(t, user.id)).is_opted_out).toBe(0);
    const [entry, ...others] = await journalOf(t, user.id);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({ source: 'sms', content: 'Stop and smell the roses' });
    expect(await inboundRow(t, sid)).toMatchObject({ kind: 'journal', entry_id: entry!.id, entry_date: entry!.entry_date });
  });

  it('answers START from a number without an account with the sign-up hint, even after STOP', async () => {
    const stranger = uniquePhone();
    for (const text of ['hello', 'STOP', 'Start!']) {
      await textJournal(t, stranger, text);
      t.clock.advance(1_000);
    }
    await sendDueMessages(t.ctx);
    expect((await outboundTo(t, stranger)).map((m) => m.kind)).toEqual(['signup_hint', 'opt_out_confirmation', 'signup_hint']);
    expect(twilio.sentTo(stranger).at(-1)!.body).toBe(smsTexts.signUpHint('http://jotline.test'));
  });

  it('STOP from a number without an account is confirmed, and no sign-up hint follows', async () => {
    const stranger = uniquePhone();
    await textJournal(t, stranger, 'STOP');
    await textJournal(t, stranger, 'hello?');
    await sendDueMessages(t.ctx);
    expect((await outboundTo(t, stranger)).map((m) => m.kind)).toEqual(['opt_out_confirmation']);
  });

  describe('with Twilio Advanced Opt-Out (OptOutType)', () => {
    it('mirrors STOP without replying', async () => {
      const user = await buildUser(t);
      const { sid } = await textJournal(t, user.phone, 'STOP', { OptOutType: 'STOP' });
      await sendDueMessages(t.ctx);
      expect((await profileOf(t, user.id)).is_opted_out).toBe(1);
      expect((await inboundRow(t, sid))!.processed).toBe(1);
      expect(await outboundTo(t, user.phone)).toEqual([]);
    });

    it('mirrors START and HELP without replying', async () => {
      const user = await buildUser(t);
      await textJournal(t, user.phone, 'STOP', { OptOutType: 'STOP' });
      await textJournal(t, user.phone, 'START', { OptOutType: 'START' });
      await textJournal(t, user.phone, 'HELP', { OptOutType: 'HELP' });
      expect((await profileOf(t, user.id)).is_opted_out).toBe(0);
      expect(await outboundTo(t, user.phone)).toEqual([]);
    });

    it('still verifies a pending phone on YES, without a second confirmation', async () => {
      const user = await buildUser(t, { verified: false });
      await textJournal(t, user.phone, 'YES', { OptOutType: 'START' });
      expect((await profileOf(t, user.id)).phone_verified).toBe(1);
      expect(await outboundTo(t, user.phone)).toEqual([]);
    });

    it('keeps YES from a verified, subscribed user as journal text', async () => {
      const user = await buildUser(t);
      await textJournal(t, user.phone, 'Yes', { OptOutType: 'START' });
      expect((await journalOf(t, user.id)).map((e) => [e.source, e.content])).toEqual([['sms', 'Yes']]);
    });
  });
});
