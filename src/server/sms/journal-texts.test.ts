import { describe, expect, it } from 'vitest';
import { localDate } from '../journal/dates';
import { buildUser } from '../test/factories';
import { sendDueMessages } from './outbound';
import {
  breakPhotoStorage,
  exportedJournalOf,
  inboundRow,
  journalOf,
  mmsFields,
  outboundTo,
  PUBLIC_URL,
  textJournal,
  type FakeMediaHost,
  type FakeTwilio,
  type SmsTestApp,
  withTwilioApp,
} from '../test/sms';

describe('journal texts from a verified user', () => {
  let twilio: FakeTwilio;
  let media: FakeMediaHost;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, media, t } = app));

  it('appends the text to the day entry and records where it went, without replying', async () => {
    const user = await buildUser(t);
    const { sid } = await textJournal(t, user.phone, 'Walked the dog at dawn.');
    const row = await inboundRow(t, sid);
    const [entry, ...others] = await journalOf(t, user.id);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({
      source: 'sms',
      content: 'Walked the dog at dawn.',
      // The day is the user's local day of arrival (buildUser: New York).
      entry_date: localDate(new Date(row!.created_at), 'America/New_York'),
      created_at: row!.created_at,
      photos: [],
    });
    expect(row).toMatchObject({ processed: 1, kind: 'journal', user_id: user.id, entry_id: entry!.id, entry_date: entry!.entry_date, error_message: null });
    expect(row!.body).toBeNull(); // the journal holds it now, under the owner's key
    expect(row!.processing_ms).toBeGreaterThanOrEqual(0);
    expect(await outboundTo(t, user.phone)).toEqual([]);
  });

  it('keeps the text of a user without access and tells them to subscribe once a day', async () => {
    const user = await buildUser(t, { trialEnd: new Date(t.clock.now().getTime() - 60_000) });
    await textJournal(t, user.phone, 'first');
    await textJournal(t, user.phone, 'second');
    await sendDueMessages(t.ctx);
    expect((await exportedJournalOf(t, user.id)).map((e) => e.content)).toEqual(['first\n\nsecond']);
    const texts = twilio.sentTo(user.phone);
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body).toContain(`${PUBLIC_URL}/subscribe`);
  });

  it('leaves the text unprocessed with the error when the journal fails, so nothing is lost', async () => {
    const user = await buildUser(t);
    const repair = breakPhotoStorage(t, user.id);
    try {
      const { sid } = await textJournal(t, user.phone, 'do not lose me', mmsFields([media.photoUrl()]));
      const row = await inboundRow(t, sid);
      expect(row!.body).toMatch(/^ENC:/); // kept for the retry
      expect(row).toMatchObject({ processed: 0, status: 'failed', error_code: 'PROCESSING_FAILED', entry_id: null });
      expect(row!.error_message).toMatch(/ENOTDIR|EEXIST/);
      expect(row!.send_after! > row!.created_at).toBe(true);
      // Nothing half-written: the day entry and the text went back with the photo.
      expect(await journalOf(t, user.id)).toEqual([]);
    } finally {
      repair();
    }
  });
});
