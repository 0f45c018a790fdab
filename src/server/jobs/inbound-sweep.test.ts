import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordInboundText } from '../sms/inbound';
import { sweepInboundMessages } from '../sms/inbound-sweep';
import { processInboundMessage } from '../sms/process-inbound';
import {
  breakPhotoStorage,
  buildSmsTestApp,
  inboundRow,
  JOURNAL_NUMBER,
  journalOf,
  mmsFields,
  newMessageSid,
  startFakeMediaHost,
  textJournal,
  type FakeMediaHost,
  type SmsTestApp,
} from '../sms/test-support';
import { buildUser } from '../test/factories';

describe('the inbound sweep', () => {
  let t: SmsTestApp;
  let media: FakeMediaHost;
  beforeAll(async () => {
    t = await buildSmsTestApp();
    media = await startFakeMediaHost();
  });
  afterAll(async () => {
    await t.close();
    await media.close();
  });

  /** A text recorded by a process that died before processing it. */
  const recordOnly = async (from: string, body: string) => {
    const messageSid = newMessageSid();
    await recordInboundText(t.ctx, { messageSid, from, to: JOURNAL_NUMBER, body, media: [] });
    return messageSid;
  };
  const contents = async (userId: string) => (await journalOf(t, userId)).map((e) => e.content);

  it('processes a text that was recorded but never processed, once it is 30 s old', async () => {
    const user = await buildUser(t);
    const sid = await recordOnly(user.phone, 'survived a crash');

    await sweepInboundMessages(t.ctx);
    expect((await inboundRow(t, sid))!.processed).toBe(0); // still with its first attempt
    expect(await contents(user.id)).toEqual([]);

    t.clock.advance(31_000);
    await sweepInboundMessages(t.ctx);
    const [entry] = await journalOf(t, user.id);
    expect(entry).toMatchObject({ source: 'sms', content: 'survived a crash' });
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 1, kind: 'journal', entry_id: entry!.id });
  });

  it('retries a text whose processing failed, with backoff, until it goes through', async () => {
    const user = await buildUser(t);
    const repair = breakPhotoStorage(t, user.id);
    const { sid } = await textJournal(t, user.phone, 'try again', mmsFields([media.photoUrl()]));
    repair();
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 0, status: 'failed', attempts: 1 });
    expect((await inboundRow(t, sid))!.error_message).toMatch(/ENOTDIR|EEXIST/);
    expect(await contents(user.id)).toEqual([]);

    t.clock.advance(20_000);
    await sweepInboundMessages(t.ctx);
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 0, attempts: 1 }); // not due yet
    expect(await contents(user.id)).toEqual([]);

    t.clock.advance(15_000);
    await sweepInboundMessages(t.ctx);
    const [entry, ...others] = await journalOf(t, user.id);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({ content: 'try again' });
    expect(entry!.photos).toHaveLength(1);
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 1, attempts: 2, error_message: null, error_code: null, entry_id: entry!.id });
  });

  it('heals a crash between the append and marking the text processed without appending it twice', async () => {
    const user = await buildUser(t);
    const messageSid = newMessageSid();
    await recordInboundText(t.ctx, { messageSid, from: user.phone, to: JOURNAL_NUMBER, body: 'a text and a photo', media: [{ url: media.photoUrl(), contentType: 'image/png' }] });
    const recorded = (await inboundRow(t, messageSid))!;
    expect(await processInboundMessage(t.ctx, recorded.id)).toEqual({ status: 'processed' });
    const [entry] = await journalOf(t, user.id);
    expect(entry).toMatchObject({ content: 'a text and a photo' });
    expect(entry!.photos).toHaveLength(1);

    // What a crash right after the journal's commit leaves: the row still as it was when claimed.
    const { processed, status, kind, user_id, entry_id, entry_date, body, processing_ms } = recorded;
    await t.ctx.db
      .updateTable('sms_messages')
      .set({ processed, status, kind, user_id, entry_id, entry_date, body, processing_ms, claimed_at: t.clock.now().toISOString() })
      .where('id', '=', recorded.id)
      .execute();

    t.clock.advance(3 * 60_000); // the dead worker's claim runs out
    expect(await sweepInboundMessages(t.ctx)).toMatchObject({ processed: 1 });
    expect(await inboundRow(t, messageSid)).toMatchObject({ processed: 1, kind: 'journal', entry_id: entry!.id, entry_date: entry!.entry_date });
    const [after, ...others] = await journalOf(t, user.id);
    expect(others).toEqual([]);
    expect(after!.content).toBe('a text and a photo');
    expect(after!.photos).toHaveLength(1);
  });

  it('never processes one text twice, even when two workers race', async () => {
    const user = await buildUser(t);
    const sid = await recordOnly(user.phone, 'just once');
    const row = (await inboundRow(t, sid))!;
    const outcomes = await Promise.all([processInboundMessage(t.ctx, row.id), processInboundMessage(t.ctx, row.id)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['busy', 'processed']);
    expect(await contents(user.id)).toEqual(['just once']);
    t.clock.advance(31_000);
    await sweepInboundMessages(t.ctx);
    expect(await contents(user.id)).toEqual(['just once']);
  });
});
