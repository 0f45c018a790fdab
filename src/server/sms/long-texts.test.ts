import { strFromU8, unzipSync } from 'fflate';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ENTRY_CONTENT_MAX } from '../../shared/journal';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { createEntry } from '../test/journal';
import { bearer, buildUser, signIn } from '../test/factories';
import { EMPTY_TWIML } from './routes';
import { exportedJournalOf, inboundRow, journalOf, outboundTo, textJournal, withTwilioApp, type SmsTestApp } from '../test/sms';
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

  it('records the refusal and its reply together: a write that fails between them leaves neither, and Twilio’s retry tells the sender once', async () => {
    const user = await buildUser(t);
    // The database refuses the reply's row (a full disk, a dropped connection) after the refusal's insert.
    const failReplies = async (on: boolean) => {
      if (t.ctx.dbKind === 'sqlite') {
        await sql.raw(on ? "create trigger refuse_replies before insert on sms_messages when new.direction = 'outbound' begin select raise(abort, 'refused'); end" : 'drop trigger refuse_replies').execute(t.ctx.db);
        return;
      }
      if (on) {
        await sql.raw("create or replace function refuse_replies() returns trigger language plpgsql as $$ begin if new.direction = 'outbound' then raise exception 'refused'; end if; return new; end $$").execute(t.ctx.db);
        await sql.raw('create trigger refuse_replies before insert on sms_messages for each row execute function refuse_replies()').execute(t.ctx.db);
      } else {
        await sql.raw('drop trigger refuse_replies on sms_messages').execute(t.ctx.db);
        await sql.raw('drop function refuse_replies()').execute(t.ctx.db);
      }
    };
    await failReplies(true);
    let first;
    try {
      first = await textJournal(t, user.phone, 'z'.repeat(2_000));
    } finally {
      await failReplies(false);
    }
    expect(first.res.statusCode).toBeGreaterThanOrEqual(500);
    expect(await inboundRow(t, first.sid)).toBeUndefined();
    // Twilio delivers it again, as it does after an error.
    const again = await textJournal(t, user.phone, first.params.Body, { MessageSid: first.sid });
    expect(again.res.statusCode).toBe(200);
    expect(await inboundRow(t, first.sid)).toMatchObject({ status: 'rejected', kind: 'too_long', user_id: user.id });
    const replies = await outboundTo(t, user.phone);
    expect(replies.map((r) => t.ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, r.body!))).toEqual([smsTexts.textTooLong(2_000)]);
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
    // The day's parts read in order: the continuation directly below the entry it continues.
    const [first, continuation] = sms;
    expect(journal.indexOf(continuation!) - journal.indexOf(first!)).toBe(1);
    // Every text is there once, in the order sent.
    expect(`${first!.content}\n\n${continuation!.content}`).toBe(texts.join('\n\n'));
    expect(first!.content.split('\n\n')).toHaveLength(6);
  });

  it('puts the next text of the day in the continuation, not back in the full entry', async () => {
    t.clock.set(new Date('2026-05-05T13:00:00Z'));
    const user = await buildUser(t);
    for (let i = 0; i < 7; i++) await textJournal(t, user.phone, textOf(1600, `more${i}`));
    await textJournal(t, user.phone, 'A short one.');
    const [first, continuation, ...rest] = await journalOf(t, user.id);
    expect(rest).toEqual([]);
    expect(first!.content.split('\n\n')).toHaveLength(6);
    expect(continuation!.content).toBe(`${textOf(1600, 'more6')}\n\nA short one.`);
  });

  it('lists and exports part two after part one, at the time of its own first text, in the list, search and every export', async () => {
    t.clock.set(new Date('2026-05-06T13:00:00Z'));
    const user = await buildUser(t, { timezone: 'America/New_York' });
    const writer = async () => {
      const token = await signIn(t, user);
      return { id: user.id, token, headers: bearer(token) };
    };
    // Texts 0-5 fill part one (9 AM to 9:50 AM); text 6, at 10 AM, starts part two. A web entry at 9:35 AM.
    for (let i = 0; i < 7; i++) {
      await textJournal(t, user.phone, textOf(1600, `text${i}`));
      t.clock.advance(10 * 60_000);
      if (i === 3) await createEntry(t, await writer(), { content: 'Written on the web', entry_date: '2026-05-06' });
    }
    const { headers } = await writer();
    const parts = (entries: ReadonlyArray<{ source: string; created_at: string }>) => entries.filter((e) => e.source === 'sms').map((e) => e.created_at);
    const inOrder = ['2026-05-06T13:00:00.000Z', '2026-05-06T14:00:00.000Z'];

    const listed = await journalOf(t, user.id);
    expect(parts(listed)).toEqual(inOrder);
    expect(listed.map((e) => e.source)).toEqual(['web', 'sms', 'sms']);
    // Page by page, the cursor keeps the same order.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=1&cursor=${cursor}` : '?limit=1';
      const res = await t.app.inject({ method: 'GET', url: `/api/entries${query}`, headers });
      const page = res.json() as { entries: Array<{ id: string }>; nextCursor: string | null };
      paged.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(listed.map((e) => e.id));

    const found = await t.app.inject({ method: 'GET', url: '/api/entries?q=text', headers });
    expect(parts(found.json().entries)).toEqual(inOrder);

    expect(parts(await exportedJournalOf(t, user.id))).toEqual(inOrder);
    const text = (await t.app.inject({ method: 'GET', url: '/api/export?format=txt', headers })).body;
    expect(text.indexOf('text0')).toBeLessThan(text.indexOf('text6'));
    expect(text.indexOf('text6')).toBeGreaterThan(text.indexOf('text5'));
    expect(text).toContain('9:00 AM · Text message');
    expect(text).toContain('10:00 AM · Text message');
    const zip = unzipSync(new Uint8Array((await t.app.inject({ method: 'GET', url: '/api/export?format=zip', headers })).rawPayload));
    const dayOne = JSON.parse(strFromU8(zip['Journal.json']!)) as { entries: Array<{ creationDate: string; jotline: { source: string } }> };
    expect(dayOne.entries.filter((e) => e.jotline.source === 'sms').map((e) => e.creationDate)).toEqual(['2026-05-06T13:00:00Z', '2026-05-06T14:00:00Z']);
    const pdf = await t.app.inject({ method: 'GET', url: '/api/export?format=pdf', headers });
    expect(pdf.statusCode).toBe(200);
  });
});
