import { describe, expect, it } from 'vitest';
import { ENTRY_CONTENT_MAX } from '../../shared/journal';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { createEntry } from '../test/journal';
import { bearer, buildUser, signIn } from '../test/factories';
import { EMPTY_TWIML } from './routes';
import { inboundRow, journalOf, outboundTo, textJournal, withTwilioApp, type SmsTestApp } from '../test/sms';
import { smsTexts } from './texts';

/** A text of exactly `length` characters, different per seed so pieces can be told apart. */
const textOf = (length: number, seed: string) => (seed + ' ').repeat(Math.ceil(length / (seed.length + 1))).slice(0, length);

describe('texts over the 1,600-character limit', () => {
  let t: SmsTestApp;
  withTwilioApp((app) => ({ t } = app));

  it('refuses a 900,000-character body whole, answers 200 so Twilio does not retry, and tells the sender', async () => {
    t.clock.set(new Date('2026-05-04T14:00:00Z'));
    const user = await buildUser(t);
    const { res, sid, params } = await textJournal(t, user.phone, 'x'.repeat(900_000));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(EMPTY_TWIML);
    expect(await inboundRow(t, sid)).toMatchObject({ status: 'rejected', kind: 'too_long', processed: 1, body: null, user_id: user.id, error_code: 'TEXT_TOO_LONG' });
    expect(await journalOf(t, user.id)).toEqual([]);
    const replies = await outboundTo(t, user.phone);
    expect(replies.map((r) => [r.kind, t.ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, r.body!)])).toEqual([['too_long', smsTexts.textTooLong(900_000)]]);

    // Twilio delivering it again changes nothing and sends no second reply.
    const again = await textJournal(t, user.phone, params.Body, { MessageSid: sid });
    expect(again.res.statusCode).toBe(200);
    expect(await outboundTo(t, user.phone)).toHaveLength(1);
  });

  it('keeps a text of exactly 1,600 characters, emoji counted as one', async () => {
    const user = await buildUser(t);
    const text = textOf(1599, 'ok') + '😀';
    await textJournal(t, user.phone, text);
    const [entry] = await journalOf(t, user.id);
    expect(entry!.content).toBe(text);
    expect(await outboundTo(t, user.phone)).toEqual([]);
  });

  it('does not answer an oversized text from a number without a journal', async () => {
    const { res } = await textJournal(t, '+15005550123', 'y'.repeat(1601));
    expect(res.statusCode).toBe(200);
    expect(await outboundTo(t, '+15005550123')).toEqual([]);
  });
});

describe('a day of texts past the 10,000-character entry limit', () => {
  let t: SmsTestApp;
  withTwilioApp((app) => ({ t } = app));

  it('continues in a second entry for the same day, nothing lost, listed next to the first', async () => {
    t.clock.set(new Date('2026-05-04T13:00:00Z'));
    const user = await buildUser(t);
    const texts = Array.from({ length: 8 }, (_, i) => textOf(1600, `text${i}`));
    for (const [i, text] of texts.entries()) {
      await textJournal(t, user.phone, text);
      t.clock.advance(10 * 60_000);
      // A web entry written the same day, between the texts.
      if (i === 2) {
        const token = await signIn(t, user);
        await createEntry(t, { id: user.id, token, headers: bearer(token) }, { content: 'Written on the web', entry_date: '2026-05-04' });
      }
    }

    const journal = await journalOf(t, user.id);
    const sms = journal.filter((e) => e.source === 'sms');
    expect(sms).toHaveLength(2);
    expect(sms.every((e) => e.entry_date === '2026-05-04' && e.content.length <= ENTRY_CONTENT_MAX)).toBe(true);
    // Newest first: the continuation directly above the entry it continues.
    const [continuation, first] = sms;
    expect(journal.indexOf(first!) - journal.indexOf(continuation!)).toBe(1);
    // Every text is there once, in the order sent.
    expect(`${first!.content}\n\n${continuation!.content}`).toBe(texts.join('\n\n'));
    expect(first!.content.split('\n\n')).toHaveLength(6);
  });

  it('puts the next text of the day in the continuation, not back in the full entry', async () => {
    t.clock.set(new Date('2026-05-05T13:00:00Z'));
    const user = await buildUser(t);
    for (let i = 0; i < 7; i++) await textJournal(t, user.phone, textOf(1600, `more${i}`));
    await textJournal(t, user.phone, 'A short one.');
    const [continuation, first, ...rest] = await journalOf(t, user.id);
    expect(rest).toEqual([]);
    expect(first!.content.split('\n\n')).toHaveLength(6);
    expect(continuation!.content).toBe(`${textOf(1600, 'more6')}\n\nA short one.`);
  });
});
