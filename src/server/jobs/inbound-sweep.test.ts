import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordInboundText } from '../sms/inbound';
import { runInboundSweep, sweepInboundAtStart, sweepInboundMessages } from '../sms/inbound-sweep';
import { processInboundMessage } from '../sms/process-inbound';
import { stopSending } from '../sms/sends-in-flight';
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
import { createEntrySchema } from '../../shared/journal';
import { createEntry } from '../journal/service';
import { testImage } from '../journal/test-helpers';
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the sweep as an instance starts', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const recordOnly = async (from: string, body: string) => {
    const messageSid = newMessageSid();
    await recordInboundText(t.ctx, { messageSid, from, to: JOURNAL_NUMBER, body, media: [] });
    return messageSid;
  };
  /** What a killed instance leaves when it dies mid-processing: the text claimed, nothing applied. */
  const claimAsDeadInstance = (sid: string) =>
    t.ctx.db
      .updateTable('sms_messages')
      .set((eb) => ({ claimed_at: t.clock.now().toISOString(), attempts: eb('attempts', '+', 1) }))
      .where('provider_message_id', '=', sid)
      .execute();
  const contents = async (userId: string) => (await journalOf(t, userId)).map((e) => e.content);
  const outboundKinds = async (userId: string, kind: string) =>
    t.ctx.db.selectFrom('sms_messages').select('dedupe_key').where('direction', '=', 'outbound').where('user_id', '=', userId).where('kind', '=', kind).execute();

  it('at once processes texts a killed instance recorded, claimed or not, where the regular sweep would wait minutes', async () => {
    const user = await buildUser(t);
    const unclaimed = await recordOnly(user.phone, 'recorded, then the crash');
    t.clock.advance(1);
    const claimed = await recordOnly(user.phone, 'claimed, then the crash');
    await claimAsDeadInstance(claimed);
    t.clock.advance(2_000); // the instance comes back two seconds later

    expect(await sweepInboundMessages(t.ctx)).toEqual({ processed: 0, failed: 0 });
    expect(await contents(user.id)).toEqual([]);

    expect(await sweepInboundAtStart(t.ctx)).toEqual({ processed: 2, failed: 0 });
    expect(await contents(user.id)).toEqual(['recorded, then the crash\n\nclaimed, then the crash']); // in the order texted
    for (const sid of [unclaimed, claimed]) expect(await inboundRow(t, sid)).toMatchObject({ processed: 1, status: 'processed', kind: 'journal' });
  });

  it('leaves texts recorded after it started to the instance that took them', async () => {
    const user = await buildUser(t);
    const startedAt = t.clock.now();
    t.clock.advance(1);
    const sid = await recordOnly(user.phone, 'arrived after the restart');
    expect(await sweepInboundAtStart(t.ctx, startedAt)).toMatchObject({ processed: 0 });
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 0, attempts: 0 });
    expect(await contents(user.id)).toEqual([]);
  });

  it('keeps the backoff of a text whose processing failed', async () => {
    const user = await buildUser(t);
    const sid = await recordOnly(user.phone, 'failed once');
    const retryAt = new Date(t.clock.now().getTime() + 30_000).toISOString();
    await t.ctx.db.updateTable('sms_messages').set({ status: 'failed', attempts: 1, send_after: retryAt }).where('provider_message_id', '=', sid).execute();
    t.clock.advance(1_000);
    await sweepInboundAtStart(t.ctx);
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 0, attempts: 1 });
  });

  it('takes over a live worker\'s claim without a text, a photo or a milestone twice', async () => {
    const user = await buildUser(t, { timezone: 'UTC' });
    // Nine earlier days, none consecutive: the text makes ten journal days, a milestone.
    const today = t.clock.now();
    for (let n = 1; n <= 9; n++) {
      const date = new Date(today.getTime() - 2 * n * 86_400_000).toISOString().slice(0, 10);
      await createEntry(t.ctx, user.id, createEntrySchema.parse({ content: `Day ${n}`, entry_date: date }));
    }
    // A media host that answers only when told: the live worker is held mid-processing.
    const png = await testImage('png');
    const held: Array<() => void> = [];
    const host = createServer((_req, res) => held.push(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png)));
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = host.address() as AddressInfo;
      const messageSid = newMessageSid();
      await recordInboundText(t.ctx, { messageSid, from: user.phone, to: JOURNAL_NUMBER, body: 'the tenth day', media: [{ url: `http://127.0.0.1:${port}/ME1.png`, contentType: 'image/png' }] });
      const { id } = (await inboundRow(t, messageSid))!;

      const live = processInboundMessage(t.ctx, id);
      while (held.length < 1) await sleep(5); // claimed, fetching its photo
      t.clock.advance(2_000);
      const restarted = sweepInboundAtStart(t.ctx); // started after that claim: takes it over
      while (held.length < 2) await sleep(5);
      for (const answer of held) answer();
      expect(await Promise.all([live, restarted])).toEqual([{ status: 'processed' }, { processed: 1, failed: 0 }]);

      const journal = await journalOf(t, user.id);
      const holding = journal.filter((e) => e.content.includes('the tenth day'));
      expect(holding.map((e) => e.content)).toEqual(['the tenth day']);
      expect(holding[0]!.photos).toHaveLength(1);
      expect(await inboundRow(t, messageSid)).toMatchObject({ processed: 1, status: 'processed', kind: 'journal', entry_id: holding[0]!.id, attempts: 2 });
      expect(await outboundKinds(user.id, 'milestone')).toEqual([{ dedupe_key: `milestone:${user.id}:days:10` }]);
    } finally {
      await new Promise((resolve) => host.close(resolve));
    }
  });

  it('runs as the first run of the background job, then the regular sweep', async () => {
    const user = await buildUser(t);
    const first = await recordOnly(user.phone, 'left behind');
    t.clock.advance(1_000);
    await runInboundSweep(t.ctx);
    expect(await inboundRow(t, first)).toMatchObject({ processed: 1 });
    const later = await recordOnly(user.phone, 'fresh');
    t.clock.advance(1_000);
    await runInboundSweep(t.ctx); // the regular sweep: still with its first attempt
    expect(await inboundRow(t, later)).toMatchObject({ processed: 0 });
  });

  it('takes no more texts once the app is shutting down', async () => {
    const user = await buildUser(t);
    const sid = await recordOnly(user.phone, 'for the next instance');
    t.clock.advance(1_000);
    stopSending(t.ctx); // what closing the app does first
    expect(await sweepInboundAtStart(t.ctx)).toEqual({ processed: 0, failed: 0 });
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 0, attempts: 0 });
  });
});
