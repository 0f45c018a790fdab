import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appendSmsToDayEntry } from '../journal/sms-entries';
import { recordInboundText } from '../sms/inbound';
import { sweepInboundMessages } from '../sms/inbound-sweep';
import { processInboundMessage } from '../sms/process-inbound';
import { buildSmsTestApp, inboundRow, JOURNAL_NUMBER, newMessageSid, textJournal, type SmsTestApp } from '../sms/test-support';
import { buildUser } from '../test/factories';

vi.mock('../journal/sms-entries', () => ({ appendSmsToDayEntry: vi.fn() }));
const append = vi.mocked(appendSmsToDayEntry);

describe('the inbound sweep', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => {
    append.mockReset();
    append.mockResolvedValue({ entryId: 'entry-1', entryDate: '2026-11-22' });
  });

  /** A text recorded by a process that died before processing it. */
  const recordOnly = async (from: string, body: string) => {
    const messageSid = newMessageSid();
    await recordInboundText(t.ctx, { messageSid, from, to: JOURNAL_NUMBER, body, media: [] });
    return messageSid;
  };

  it('processes a text that was recorded but never processed, once it is 30 s old', async () => {
    const user = await buildUser(t);
    const sid = await recordOnly(user.phone, 'survived a crash');

    await sweepInboundMessages(t.ctx);
    expect((await inboundRow(t, sid))!.processed).toBe(0); // still with its first attempt

    t.clock.advance(31_000);
    await sweepInboundMessages(t.ctx);
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 1, kind: 'journal', entry_id: 'entry-1' });
    expect(append).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ userId: user.id, text: 'survived a crash' }));
  });

  it('retries a text whose processing failed, with backoff, until it goes through', async () => {
    append.mockRejectedValueOnce(new Error('database hiccup'));
    const user = await buildUser(t);
    const { sid } = await textJournal(t, user.phone, 'try again');
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 0, error_message: 'database hiccup' });

    t.clock.advance(20_000);
    await sweepInboundMessages(t.ctx);
    expect(append).toHaveBeenCalledTimes(1); // not due yet

    t.clock.advance(15_000);
    await sweepInboundMessages(t.ctx);
    expect(append).toHaveBeenCalledTimes(2);
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 1, error_message: null, error_code: null, entry_id: 'entry-1' });
  });

  it('never processes one text twice, even when two workers race', async () => {
    const user = await buildUser(t);
    const sid = await recordOnly(user.phone, 'just once');
    const row = (await inboundRow(t, sid))!;
    const outcomes = await Promise.all([processInboundMessage(t.ctx, row.id), processInboundMessage(t.ctx, row.id)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['busy', 'processed']);
    expect(append).toHaveBeenCalledTimes(1);
    t.clock.advance(31_000);
    await sweepInboundMessages(t.ctx);
    expect(append).toHaveBeenCalledTimes(1);
  });
});
