import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors';
import { appendSmsToDayEntry } from '../journal/sms-entries';
import { buildUser } from '../test/factories';
import { sendDueMessages } from './outbound';
import { buildSmsTestApp, inboundRow, outboundTo, PUBLIC_URL, startFakeTwilio, textJournal, type FakeTwilio, type SmsTestApp } from './test-support';

vi.mock('../journal/sms-entries', () => ({ appendSmsToDayEntry: vi.fn() }));
const append = vi.mocked(appendSmsToDayEntry);

describe('journal texts from a verified user', () => {
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
  beforeEach(() => {
    append.mockReset();
    append.mockResolvedValue({ entryId: 'entry-7', entryDate: '2026-11-22' });
  });

  it('appends the text to the day entry and records where it went, without replying', async () => {
    const user = await buildUser(t);
    const { sid } = await textJournal(t, user.phone, 'Walked the dog at dawn.');
    const row = await inboundRow(t, sid);
    expect(append).toHaveBeenCalledWith(t.ctx, {
      userId: user.id,
      text: 'Walked the dog at dawn.',
      receivedAt: new Date(row!.created_at),
      media: [],
    });
    expect(row).toMatchObject({ processed: 1, kind: 'journal', user_id: user.id, entry_id: 'entry-7', entry_date: '2026-11-22', error_message: null });
    expect(row!.body).toBeNull(); // the journal holds it now, under the owner's key
    expect(row!.processing_ms).toBeGreaterThanOrEqual(0);
    expect(await outboundTo(t, user.phone)).toEqual([]);
  });

  it('keeps the text of a user without access and tells them to subscribe once a day', async () => {
    const user = await buildUser(t, { trialEnd: new Date(t.clock.now().getTime() - 60_000) });
    await textJournal(t, user.phone, 'first');
    await textJournal(t, user.phone, 'second');
    await sendDueMessages(t.ctx);
    expect(append).toHaveBeenCalledTimes(2);
    const texts = twilio.sentTo(user.phone);
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body).toContain(`${PUBLIC_URL}/subscribe`);
  });

  it('leaves the text unprocessed with the error when the journal fails, so nothing is lost', async () => {
    append.mockRejectedValueOnce(new AppError('UNAVAILABLE', 'storage is down'));
    const user = await buildUser(t);
    const { sid } = await textJournal(t, user.phone, 'do not lose me');
    const row = await inboundRow(t, sid);
    expect(row!.body).toMatch(/^ENC:/); // kept for the retry
    expect(row).toMatchObject({ processed: 0, status: 'failed', error_code: 'UNAVAILABLE', error_message: 'storage is down' });
    expect(row!.send_after! > row!.created_at).toBe(true);
  });
});
