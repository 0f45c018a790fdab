import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../../shared/messages';
import { SYSTEM_SUBJECT } from '../../crypto/encryption';
import { runReminderPass } from '../../reminders/service';
import { apiClient, buildUser, signIn } from '../../test/factories';
import { handleInboundText } from '../inbound-rules';
import { inboundProcessingSettled } from '../inbound-job';
import { sendDueMessages } from '../outbound';
import {
  inboundRow,
  journalOf,
  mmsFields,
  newMessageSid,
  outboundTo,
  postTwilioWebhook,
  profileOf,
  PUBLIC_URL,
  textJournal,
  TWILIO_SID,
  JOURNAL_NUMBER,
  type FakeMediaHost,
  type FakeTwilio,
  type SmsTestApp,
  withTwilioApp,
} from '../../test/sms';

const t_ = messages.textCommands;
// 10:00 in New York (buildUser's zone) on Monday 23 November 2026.
const MORNING = new Date('2026-11-23T15:00:00Z');

describe('text commands', () => {
  let twilio: FakeTwilio;
  let media: FakeMediaHost;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, media, t } = app));
  beforeEach(() => t.clock.set(MORNING));

  /** Texts the journal and returns what the user got back (sent by the outbound worker). */
  async function send(phone: string, body: string, extra: Record<string, string> = {}) {
    const before = twilio.sentTo(phone).length;
    const { sid } = await textJournal(t, phone, body, extra);
    await sendDueMessages(t.ctx);
    return { sid, replies: twilio.sentTo(phone).slice(before).map((m) => m.body) };
  }
  const contents = async (userId: string) => (await journalOf(t, userId)).map((e) => e.content);

  describe('COMMANDS and HELP', () => {
    it('lists every command in one text of at most 320 characters, and journals nothing', async () => {
      const user = await buildUser(t);
      const { sid, replies } = await send(user.phone, 'commands');
      expect(replies).toEqual([t_.commands]);
      expect(replies[0]!.length).toBeLessThanOrEqual(320);
      for (const word of ['UNDO', 'YESTERDAY:', 'LINK', 'PAUSE', 'RESUME', 'REMIND', 'STOP']) expect(replies[0]).toContain(word);
      expect(replies[0]).toMatch(/^[\x20-\x7e]+$/);
      expect(await inboundRow(t, sid)).toMatchObject({ processed: 1, kind: 'command', user_id: user.id, body: null });
      expect(await journalOf(t, user.id)).toEqual([]);
    });

    it('keeps the carrier HELP reply and points to COMMANDS', async () => {
      const user = await buildUser(t);
      const { replies } = await send(user.phone, 'HELP');
      expect(replies).toHaveLength(1);
      expect(replies[0]).toContain('support@jotline.app');
      expect(replies[0]).toContain('STOP');
      expect(replies[0]).toMatch(/Text COMMANDS for more\.$/);
    });
  });

  describe('UNDO', () => {
    it('takes out the last text, then the one before, and the entry when nothing is left', async () => {
      const user = await buildUser(t);
      await send(user.phone, 'Coffee with Sam.');
      await send(user.phone, 'Rain all afternoon.');
      expect(await contents(user.id)).toEqual(['Coffee with Sam.\n\nRain all afternoon.']);

      const first = await send(user.phone, 'UNDO');
      expect(first.replies).toEqual([t_.undone('today', 0, false)]);
      expect(await contents(user.id)).toEqual(['Coffee with Sam.']);
      const [entry] = await journalOf(t, user.id);
      expect(entry!.word_count).toBe(3);

      const second = await send(user.phone, 'undo');
      expect(second.replies).toEqual([t_.undone('today', 0, true)]);
      expect(await journalOf(t, user.id)).toEqual([]);

      expect((await send(user.phone, 'Undo')).replies).toEqual([t_.nothingToUndo]);
    });

    it('takes out a text’s photos with it, files included, and keeps earlier ones', async () => {
      const user = await buildUser(t);
      await send(user.phone, 'Beach day', mmsFields([media.photoUrl()]));
      await send(user.phone, 'Sunset', mmsFields([media.photoUrl(), media.photoUrl()]));
      const [before] = await journalOf(t, user.id);
      expect(before!.photos).toHaveLength(3);
      const stored = await t.ctx.db.selectFrom('journal_photos').select(['id', 'file_path']).where('user_id', '=', user.id).orderBy('position').execute();

      const { replies } = await send(user.phone, 'UNDO');
      expect(replies).toEqual([t_.undone('today', 2, false)]);
      const [after] = await journalOf(t, user.id);
      expect(after!.content).toBe('Beach day');
      expect(after!.photos.map((p) => p.id)).toEqual([stored[0]!.id]);
      expect(await t.ctx.storage.get(stored[0]!.file_path)).not.toBeNull();
      expect(await t.ctx.storage.get(stored[1]!.file_path)).toBeNull();
      expect(await t.ctx.storage.get(stored[2]!.file_path)).toBeNull();
    });

    it('takes out a text that started a continuation entry, leaving the full entry before it', async () => {
      const user = await buildUser(t);
      const texts = Array.from({ length: 7 }, (_, i) => `${String(i).repeat(3)} ${'word '.repeat(290)}`.trim());
      for (const text of texts) await send(user.phone, text);
      const before = await journalOf(t, user.id);
      expect(before).toHaveLength(2);
      expect((await send(user.phone, 'UNDO')).replies).toEqual([t_.undone('today', 0, true)]);
      expect(await contents(user.id)).toEqual([texts.slice(0, 6).join('\n\n')]);
      await send(user.phone, 'UNDO');
      expect(await contents(user.id)).toEqual([texts.slice(0, 5).join('\n\n')]);
    });

    it('takes out a photo-only text, and the entry it made', async () => {
      const user = await buildUser(t);
      await send(user.phone, '', mmsFields([media.photoUrl()]));
      expect((await journalOf(t, user.id))[0]!.photos).toHaveLength(1);
      expect((await send(user.phone, 'UNDO')).replies).toEqual([t_.undone('today', 1, true)]);
      expect(await journalOf(t, user.id)).toEqual([]);
      expect(await t.ctx.db.selectFrom('journal_photos').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    });

    it('leaves an entry edited on the web alone and says why', async () => {
      const user = await buildUser(t);
      await send(user.phone, 'First line');
      await send(user.phone, 'Second line');
      const [entry] = await journalOf(t, user.id);
      const token = await signIn(t, user);
      const edited = await apiClient(t).patch(`/api/entries/${entry!.id}`, { content: 'First line\n\nSecond line, rewritten' }, token);
      expect(edited.status).toBe(200);
      const { replies } = await send(user.phone, 'UNDO');
      expect(replies).toEqual([t_.undoEdited(PUBLIC_URL)]);
      expect(await contents(user.id)).toEqual(['First line\n\nSecond line, rewritten']);
    });

    it('only takes out texts sent today (local day)', async () => {
      const user = await buildUser(t);
      // 23:30 in New York on the 22nd is already the 23rd in UTC.
      t.clock.set(new Date('2026-11-23T04:30:00Z'));
      await send(user.phone, 'Late night thoughts');
      t.clock.set(MORNING);
      expect((await send(user.phone, 'UNDO')).replies).toEqual([t_.nothingToUndo]);
      expect(await contents(user.id)).toEqual(['Late night thoughts']);
    });

    it('keeps records of the last few days only: a day’s first text forgets the older ones', async () => {
      const user = await buildUser(t);
      const days = async () => (await t.ctx.db.selectFrom('journal_sms_undo').select('received_on').where('user_id', '=', user.id).orderBy('received_on').execute()).map((r) => r.received_on);
      await send(user.phone, 'Monday');
      await send(user.phone, 'Monday again');
      t.clock.set(new Date('2026-11-24T15:00:00Z'));
      await send(user.phone, 'Tuesday');
      expect(await days()).toEqual(['2026-11-23', '2026-11-23', '2026-11-24']);
      t.clock.set(new Date('2026-11-26T15:00:00Z'));
      await send(user.phone, 'Thursday');
      expect(await days()).toEqual(['2026-11-24', '2026-11-26']);
      // A later text the same day adds its record and forgets nothing.
      await send(user.phone, 'Thursday again');
      expect(await days()).toEqual(['2026-11-24', '2026-11-26', '2026-11-26']);
      expect((await send(user.phone, 'UNDO')).replies[0]).toMatch(/^Jotline: Took/);
      expect(await contents(user.id)).toContain('Thursday');
    });

    it('is seen by search and by open pages at once', async () => {
      const user = await buildUser(t);
      await send(user.phone, 'Zebra crossing');
      const token = await signIn(t, user);
      const found = await apiClient(t).get('/api/entries?q=zebra', token);
      expect((found.body as { entries: unknown[] }).entries).toHaveLength(1);
      const heard: unknown[] = [];
      const unsubscribe = t.ctx.events.subscribe(user.id, (event) => heard.push(event));
      await send(user.phone, 'UNDO');
      unsubscribe();
      expect(heard).toContainEqual(expect.objectContaining({ type: 'entries.changed' }));
      const again = await apiClient(t).get('/api/entries?q=zebra', token);
      expect((again.body as { entries: unknown[] }).entries).toEqual([]);
    });

    it('takes out one text however often the same UNDO is delivered or processed', async () => {
      const user = await buildUser(t);
      await send(user.phone, 'one');
      await send(user.phone, 'two');
      await send(user.phone, 'three');
      const params = { MessageSid: newMessageSid(), AccountSid: TWILIO_SID, From: user.phone, To: JOURNAL_NUMBER, Body: 'UNDO', NumMedia: '0' };
      await postTwilioWebhook(t, '/webhooks/twilio/sms', params);
      await postTwilioWebhook(t, '/webhooks/twilio/sms', params);
      await inboundProcessingSettled(t.ctx);
      expect(await contents(user.id)).toEqual(['one\n\ntwo']);
      // Processed again after a crash (before it was marked processed): still one text out.
      const row = (await inboundRow(t, params.MessageSid))!;
      const again = { messageId: row.id, messageSid: params.MessageSid, from: user.phone, body: 'UNDO', media: [], receivedAt: MORNING, providerKeyword: null };
      await handleInboundText(t.ctx, again);
      await handleInboundText(t.ctx, again);
      expect(await contents(user.id)).toEqual(['one\n\ntwo']);
      await sendDueMessages(t.ctx);
      expect(twilio.sentTo(user.phone).filter((m) => m.body.startsWith('Jotline: Took'))).toHaveLength(1);
    });
  });

  describe('YESTERDAY', () => {
    it('adds the rest of the text to yesterday’s entry (local day), made if missing', async () => {
      const user = await buildUser(t);
      const first = await send(user.phone, 'YESTERDAY: Long walk by the river.');
      expect(first.replies).toEqual([t_.yesterdayAdded]);
      await send(user.phone, 'yesterday - and soup after');
      await send(user.phone, 'Today is grey.');
      const journal = await journalOf(t, user.id);
      const byDay = Object.fromEntries(journal.map((e) => [e.entry_date, e.content]));
      expect(byDay).toEqual({ '2026-11-22': 'Long walk by the river.\n\nand soup after', '2026-11-23': 'Today is grey.' });
      expect((await inboundRow(t, first.sid))!.body).toBeNull();
    });

    it('counts yesterday from the user’s own day, not the server’s', async () => {
      const user = await buildUser(t, { timezone: 'Pacific/Honolulu' });
      // 01:00 UTC on the 24th is still 15:00 on the 23rd in Honolulu.
      t.clock.set(new Date('2026-11-24T01:00:00Z'));
      await send(user.phone, 'Yesterday: surf lesson');
      expect((await journalOf(t, user.id)).map((e) => e.entry_date)).toEqual(['2026-11-22']);
    });

    it('can be taken back out with UNDO', async () => {
      const user = await buildUser(t);
      await send(user.phone, 'Yesterday: oops, wrong day');
      expect((await send(user.phone, 'UNDO')).replies).toEqual([t_.undone('yesterday', 0, true)]);
      expect(await journalOf(t, user.id)).toEqual([]);
    });

    it('needs its colon or dash, and something to add', async () => {
      const user = await buildUser(t);
      const empty = await send(user.phone, 'YESTERDAY:');
      expect(empty.replies).toEqual([t_.yesterdayEmpty]);
      expect(await journalOf(t, user.id)).toEqual([]);
      await send(user.phone, 'Yesterday was lovely');
      expect((await journalOf(t, user.id)).map((e) => [e.entry_date, e.content])).toEqual([['2026-11-23', 'Yesterday was lovely']]);
    });
  });

  describe('LINK', () => {
    it('texts a one-time sign-in link that works once', async () => {
      const user = await buildUser(t);
      const { replies } = await send(user.phone, 'link');
      expect(replies).toHaveLength(1);
      const url = /(http\S+)/.exec(replies[0]!)![1]!;
      expect(url.startsWith(`${PUBLIC_URL}/auth/callback?token=`)).toBe(true);
      const token = new URL(url).searchParams.get('token')!;
      const client = apiClient(t);
      const session = await client.post('/api/auth/token', { grant_type: 'link', token });
      expect(session.status).toBe(200);
      expect((session.body as { user: { id: string } }).user.id).toBe(user.id);
      const reused = await client.post('/api/auth/token', { grant_type: 'link', token });
      expect(reused.status).toBe(400);
      expect(reused.body).toMatchObject({ error: { message: messages.auth.invalidLink } });
      expect(await journalOf(t, user.id)).toEqual([]);
    });
  });

  describe('PAUSE and RESUME', () => {
    it('pauses automated texts for 7 days and says until when in the user’s zone', async () => {
      const user = await buildUser(t);
      const { replies } = await send(user.phone, 'PAUSE');
      expect(replies).toEqual([t_.paused('Mon, Nov 30, 10:00 AM EST')]);
      expect((await profileOf(t, user.id)).paused_until).toBe('2026-11-30T15:00:00.000Z');
      const profile = await apiClient(t).get('/api/profile', await signIn(t, user));
      expect(profile.body).toMatchObject({ paused_until: '2026-11-30T15:00:00.000Z' });
    });

    it('takes 1 to 30 days, and explains otherwise', async () => {
      const user = await buildUser(t, { timezone: 'America/Los_Angeles' });
      expect((await send(user.phone, 'pause 3')).replies).toEqual([t_.paused('Thu, Nov 26, 7:00 AM PST')]);
      expect((await send(user.phone, 'PAUSE 45')).replies).toEqual([t_.pauseDays]);
      expect((await profileOf(t, user.id)).paused_until).toBe('2026-11-26T15:00:00.000Z');
    });

    it('holds back reminders while paused, and RESUME brings them back', async () => {
      const user = await buildUser(t);
      await send(user.phone, 'PAUSE 2');
      const remindersTo = async () => (await outboundTo(t, user.phone)).filter((m) => m.kind === 'reminder' || m.kind === 'nudge');
      // The pass schedules 20:00 New York, then the reminder falls due.
      await runReminderPass(t.ctx, MORNING);
      await runReminderPass(t.ctx, new Date('2026-11-24T01:00:00Z'));
      expect(await remindersTo()).toEqual([]);

      t.clock.set(new Date('2026-11-24T15:00:00Z'));
      expect((await send(user.phone, 'Resume')).replies).toEqual([t_.resumed]);
      expect((await profileOf(t, user.id)).paused_until).toBeNull();
      await runReminderPass(t.ctx, new Date('2026-11-25T01:00:00Z'));
      expect(await remindersTo()).toHaveLength(1);
      expect((await send(user.phone, 'RESUME')).replies).toContain(t_.notPaused);
    });

    it('holds back a milestone text queued while paused', async () => {
      const user = await buildUser(t);
      await send(user.phone, 'PAUSE');
      await t.ctx.db
        .insertInto('sms_messages')
        .values({
          id: `m-${user.id}`,
          user_id: user.id,
          direction: 'outbound',
          kind: 'milestone',
          dedupe_key: `milestone-test:${user.id}`,
          status: 'pending',
          from_number: JOURNAL_NUMBER,
          to_number: user.phone,
          body: t.ctx.cipher.encrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, 'x'),
          send_after: MORNING.toISOString(),
          created_at: MORNING.toISOString(),
          updated_at: MORNING.toISOString(),
        })
        .execute();
      const before = twilio.sentTo(user.phone).length;
      await sendDueMessages(t.ctx);
      expect(twilio.sentTo(user.phone).length).toBe(before);
      expect((await outboundTo(t, user.phone)).find((m) => m.kind === 'milestone')).toMatchObject({ status: 'skipped' });
    });

    it('can be ended from settings (PATCH paused_until: null), and nothing else is accepted there', async () => {
      const user = await buildUser(t);
      await send(user.phone, 'PAUSE');
      const token = await signIn(t, user);
      const client = apiClient(t);
      const refused = await client.patch('/api/profile', { paused_until: '2027-01-01T00:00:00Z' }, token);
      expect(refused.status).toBe(400);
      const ended = await client.patch('/api/profile', { paused_until: null }, token);
      expect(ended.status).toBe(200);
      expect(ended.body).toMatchObject({ paused_until: null });
      expect((await profileOf(t, user.id)).paused_until).toBeNull();
    });

    it('still answers commands while paused', async () => {
      const user = await buildUser(t);
      await send(user.phone, 'PAUSE');
      expect((await send(user.phone, 'LINK')).replies[0]).toMatch(/auth\/callback\?token=/);
      expect((await send(user.phone, 'COMMANDS')).replies).toEqual([t_.commands]);
    });
  });

  describe('REMIND', () => {
    it('sets the daily reminder from 12- or 24-hour times, rounded to the quarter hour, or turns it off', async () => {
      const user = await buildUser(t);
      expect((await send(user.phone, 'REMIND 9pm')).replies).toEqual([t_.reminderSet('9:00 PM', false)]);
      expect(await profileOf(t, user.id)).toMatchObject({ reminder_enabled: 1, reminder_time: '21:00', next_reminder_at: null });
      expect((await send(user.phone, 'remind 7:08am')).replies).toEqual([t_.reminderSet('7:15 AM', true)]);
      expect((await profileOf(t, user.id)).reminder_time).toBe('07:15');
      expect((await send(user.phone, 'REMIND 21:30')).replies).toEqual([t_.reminderSet('9:30 PM', false)]);
      expect((await send(user.phone, 'Remind OFF')).replies).toEqual([t_.reminderOff]);
      expect(await profileOf(t, user.id)).toMatchObject({ reminder_enabled: 0, reminder_time: '21:30' });
      expect((await send(user.phone, 'REMIND 25:00')).replies).toEqual([t_.reminderHow]);
      expect(await journalOf(t, user.id)).toEqual([]);
    });

    it('reminds a paused user that texts stay paused until then', async () => {
      const user = await buildUser(t);
      await send(user.phone, 'PAUSE 2');
      const { replies } = await send(user.phone, 'REMIND 8:30pm');
      expect(replies).toEqual([`${t_.reminderSet('8:30 PM', false)} ${t_.stillPaused('Wed, Nov 25, 10:00 AM EST')}`]);
    });

    it('leaves a sentence that starts with Remind in the journal', async () => {
      const user = await buildUser(t);
      const { replies } = await send(user.phone, 'Remind me to call Mum');
      expect(replies).toEqual([]);
      expect(await contents(user.id)).toEqual(['Remind me to call Mum']);
      expect((await profileOf(t, user.id)).reminder_time).toBe('20:00');
    });
  });

  describe('who may use them', () => {
    it('works for a user whose trial is over, LINK included, so they can reach export', async () => {
      const user = await buildUser(t, { trialEnd: new Date(MORNING.getTime() - 86_400_000) });
      await send(user.phone, 'Still writing');
      const link = await send(user.phone, 'LINK');
      const token = new URL(/(http\S+)/.exec(link.replies[0]!)![1]!).searchParams.get('token')!;
      const client = apiClient(t);
      const session = await client.post('/api/auth/token', { grant_type: 'link', token });
      expect(session.status).toBe(200);
      const access = (session.body as { access_token: string }).access_token;
      const exported = await client.get('/api/export?format=json', access);
      expect(exported.status).toBe(200);
      expect((await send(user.phone, 'UNDO')).replies).toEqual([t_.undone('today', 0, true)]);
      expect((await send(user.phone, 'PAUSE 1')).replies[0]).toMatch(/^Jotline: Texts paused until/);
    });

    it('applies an opted-out user’s commands but texts them nothing until START', async () => {
      const user = await buildUser(t);
      await send(user.phone, 'Before stopping');
      await send(user.phone, 'STOP');
      const undo = await send(user.phone, 'UNDO');
      const link = await send(user.phone, 'LINK');
      const remind = await send(user.phone, 'REMIND 6am');
      expect([...undo.replies, ...link.replies, ...remind.replies]).toEqual([]);
      expect(await journalOf(t, user.id)).toEqual([]);
      expect(await profileOf(t, user.id)).toMatchObject({ is_opted_out: 1, reminder_time: '06:00' });
      expect((await outboundTo(t, user.phone)).filter((m) => m.kind === 'command_reply').map((m) => m.status)).toEqual(['skipped', 'skipped', 'skipped']);
    });

    it('answers an unknown number with the sign-up hint only', async () => {
      const phone = '+12025550177';
      const { replies, sid } = await send(phone, 'LINK');
      expect(replies).toHaveLength(1);
      expect(replies[0]).toMatch(/not linked to a journal yet/);
      expect(await inboundRow(t, sid)).toMatchObject({ kind: 'unknown_number', user_id: null });
    });

    it('asks an unverified number for YES and sends no link', async () => {
      const user = await buildUser(t, { verified: false });
      const { replies } = await send(user.phone, 'LINK');
      expect(replies).toHaveLength(1);
      expect(replies[0]).toMatch(/Reply YES to confirm this phone/);
      expect(replies[0]).not.toMatch(/auth\/callback/);
      const tokens = await t.ctx.db.selectFrom('one_time_tokens').select('id').where('user_id', '=', user.id).where('purpose', '=', 'sign_in_link').execute();
      expect(tokens).toEqual([]);
    });

    it('treats a photo captioned with a command word as a photo for the journal', async () => {
      const user = await buildUser(t);
      const { replies } = await send(user.phone, 'Link', mmsFields([media.photoUrl()]));
      expect(replies).toEqual([]);
      const [entry] = await journalOf(t, user.id);
      expect(entry).toMatchObject({ content: 'Link' });
      expect(entry!.photos).toHaveLength(1);
    });
  });
});
