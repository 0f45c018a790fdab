import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntrySchema } from '../../shared/journal';
import { buildApp } from '../app';
import { manualClock } from '../clock';
import type { AppContext } from '../context';
import { createEntry } from '../journal/service';
import { testImage } from '../test/journal';
import { buildUser } from '../test/factories';
import { recordInboundText } from './inbound';
import { inboundProcessingSettled, processInboundMessage, processInboundTexts } from './inbound-job';
import { EMPTY_TWIML } from './routes';
import { stopSending } from './sends-in-flight';
import {
  breakPhotoStorage,
  buildSmsTestApp,
  inboundRow,
  JOURNAL_NUMBER,
  journalOf,
  mmsFields,
  newMessageSid,
  postTwilioWebhook,
  startFakeMediaHost,
  textJournal,
  TWILIO_SID,
  type FakeMediaHost,
  type SmsTestApp,
  withTwilioApp,
} from '../test/sms';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A text recorded by the webhook and not processed yet (or by an instance that died before it was). */
async function recordOnly(t: SmsTestApp, from: string, body: string): Promise<{ id: string; sid: string }> {
  const sid = newMessageSid();
  const { id } = await recordInboundText(t.ctx, { messageSid: sid, from, to: JOURNAL_NUMBER, body, media: [] });
  return { id, sid };
}

const contents = async (t: SmsTestApp, userId: string) => (await journalOf(t, userId)).map((e) => e.content);

describe('the inbound job', () => {
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

  it('journals recorded texts in the order they arrived, and writes their outcome with the entry', async () => {
    const user = await buildUser(t);
    const first = await recordOnly(t, user.phone, 'Morning: coffee on the porch.');
    t.clock.advance(1);
    const second = await recordOnly(t, user.phone, 'Evening: a walk by the river.');
    expect(await processInboundTexts(t.ctx)).toEqual({ processed: 2, failed: 0 });
    const [entry, ...others] = await journalOf(t, user.id);
    expect(others).toEqual([]);
    expect(entry!.content).toBe('Morning: coffee on the porch.\n\nEvening: a walk by the river.');
    for (const text of [first, second]) {
      expect(await inboundRow(t, text.sid)).toMatchObject({ processed: 1, status: 'processed', kind: 'journal', entry_id: entry!.id, body: null, attempts: 1 });
    }
  });

  it.runIf(!process.env.TEST_DATABASE_URL)('leaves SQLite waiting for the disk on every commit after a text, as an acknowledged write needs', async () => {
    const user = await buildUser(t);
    await recordOnly(t, user.phone, 'The journal append may skip the flush; the webhook never does.');
    await processInboundTexts(t.ctx);
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(t.ctx.db);
    expect(rows[0]!.synchronous).toBe(2); // FULL
  });

  it('retries a text whose processing failed, with backoff, until it goes through', async () => {
    const user = await buildUser(t);
    const repair = breakPhotoStorage(t, user.id);
    const { sid } = await textJournal(t, user.phone, 'try again', mmsFields([media.photoUrl()]));
    repair();
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 0, status: 'failed', attempts: 1, claimed_at: null });
    expect((await inboundRow(t, sid))!.error_message).toMatch(/ENOTDIR|EEXIST/);
    expect(await contents(t, user.id)).toEqual([]);

    t.clock.advance(20_000);
    await processInboundTexts(t.ctx);
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 0, attempts: 1 }); // not due yet
    expect(await contents(t, user.id)).toEqual([]);

    t.clock.advance(15_000);
    await processInboundTexts(t.ctx);
    const [entry, ...others] = await journalOf(t, user.id);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({ content: 'try again' });
    expect(entry!.photos).toHaveLength(1);
    expect(await inboundRow(t, sid)).toMatchObject({ processed: 1, attempts: 2, error_message: null, error_code: null, entry_id: entry!.id });
  });

  it('leaves a text another worker holds under a live lease, and takes it once the lease has run out', async () => {
    const user = await buildUser(t);
    await processInboundTexts(t.ctx); // this app's first run is behind it
    const held = await recordOnly(t, user.phone, 'Held by another worker.');
    await t.ctx.db.updateTable('sms_messages').set({ claimed_at: t.clock.now().toISOString(), attempts: 1 }).where('id', '=', held.id).execute();
    expect(await processInboundMessage(t.ctx, held.id)).toEqual({ status: 'busy' });
    expect(await inboundRow(t, held.sid)).toMatchObject({ processed: 0, status: 'received', attempts: 1 });

    t.clock.advance(61_000); // the other worker died: its lease runs out
    expect(await processInboundTexts(t.ctx)).toMatchObject({ processed: 1 });
    expect(await contents(t, user.id)).toEqual(['Held by another worker.']);
  });

  it('heals a crash between the append and marking the text processed without appending it twice', async () => {
    const user = await buildUser(t);
    const messageSid = newMessageSid();
    await recordInboundText(t.ctx, { messageSid, from: user.phone, to: JOURNAL_NUMBER, body: 'a text and a photo', media: [{ url: media.photoUrl(), contentType: 'image/png' }] });
    const recorded = (await inboundRow(t, messageSid))!;
    expect(await processInboundMessage(t.ctx, recorded.id)).toEqual({ status: 'processed' });
    const [entry] = await journalOf(t, user.id);
    expect(entry!.photos).toHaveLength(1);

    // The row as it was when claimed, as if its outcome had been lost.
    const { processed, status, kind, user_id, entry_id, entry_date, body, processing_ms } = recorded;
    await t.ctx.db
      .updateTable('sms_messages')
      .set({ processed, status, kind, user_id, entry_id, entry_date, body, processing_ms, claimed_at: t.clock.now().toISOString() })
      .where('id', '=', recorded.id)
      .execute();

    t.clock.advance(61_000);
    expect(await processInboundTexts(t.ctx)).toMatchObject({ processed: 1 });
    expect(await inboundRow(t, messageSid)).toMatchObject({ processed: 1, kind: 'journal', entry_id: entry!.id, entry_date: entry!.entry_date });
    const [after, ...others] = await journalOf(t, user.id);
    expect(others).toEqual([]);
    expect(after!.content).toBe('a text and a photo');
    expect(after!.photos).toHaveLength(1);
  });

  it('never processes one text twice when two workers race for it', async () => {
    const user = await buildUser(t);
    const { id } = await recordOnly(t, user.phone, 'just once');
    const outcomes = await Promise.all([processInboundMessage(t.ctx, id), processInboundMessage(t.ctx, id)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['busy', 'processed']);
    t.clock.advance(61_000);
    await processInboundTexts(t.ctx);
    expect(await contents(t, user.id)).toEqual(['just once']);
  });

  it('takes no more texts once the app is shutting down', async () => {
    const other = await buildSmsTestApp({ sameDatabaseAs: t });
    try {
      const user = await buildUser(other);
      const { sid } = await recordOnly(other, user.phone, 'for the next instance');
      stopSending(other.ctx); // what closing the app does first
      expect(await processInboundTexts(other.ctx)).toEqual({ processed: 0, failed: 0 });
      expect(await inboundRow(other, sid)).toMatchObject({ processed: 0, attempts: 0 });
    } finally {
      await other.close();
    }
  });
});

describe('an instance starting after a crash', () => {
  let crashed: SmsTestApp;
  beforeAll(async () => {
    crashed = await buildSmsTestApp();
  });
  afterAll(async () => {
    await crashed.close();
  });

  /**
   * The instance that comes back, its clock two seconds after the crash. It shares the crashed
   * one's connection: two SQLite connections in one thread would wait on each other's locks.
   */
  async function restart(): Promise<{ ctx: AppContext; close(): Promise<void> }> {
    const { config, db, dbKind } = crashed.ctx;
    const app = await buildApp(config, { database: { db, kind: dbKind, close: async () => {} }, clock: manualClock(new Date(crashed.clock.now().getTime() + 2_000)), serveWeb: false });
    await app.ready();
    return { ctx: app.ctx, close: () => app.close() };
  }

  it('at once processes texts the crashed instance recorded, claimed or not, without waiting out their lease', async () => {
    const user = await buildUser(crashed);
    const unclaimed = await recordOnly(crashed, user.phone, 'recorded, then the crash');
    crashed.clock.advance(1);
    const claimed = await recordOnly(crashed, user.phone, 'claimed, then the crash');
    await crashed.ctx.db.updateTable('sms_messages').set({ claimed_at: crashed.clock.now().toISOString(), attempts: 1 }).where('id', '=', claimed.id).execute();

    const restarted = await restart();
    try {
      expect(await processInboundTexts(restarted.ctx)).toEqual({ processed: 2, failed: 0 });
      expect(await contents(crashed, user.id)).toEqual(['recorded, then the crash\n\nclaimed, then the crash']);
      for (const text of [unclaimed, claimed]) expect(await inboundRow(crashed, text.sid)).toMatchObject({ processed: 1, kind: 'journal' });
    } finally {
      await restarted.close();
    }
  });

  it('keeps the backoff of a text whose processing failed', async () => {
    const user = await buildUser(crashed);
    const { sid } = await recordOnly(crashed, user.phone, 'failed once');
    const retryAt = new Date(crashed.clock.now().getTime() + 30_000).toISOString();
    await crashed.ctx.db.updateTable('sms_messages').set({ status: 'failed', attempts: 1, send_after: retryAt }).where('provider_message_id', '=', sid).execute();
    const restarted = await restart();
    try {
      await processInboundTexts(restarted.ctx);
      expect(await inboundRow(crashed, sid)).toMatchObject({ processed: 0, attempts: 1 });
    } finally {
      await restarted.close();
    }
  });

  it("takes over a live worker's claim without a text, a photo or a milestone twice", async () => {
    const user = await buildUser(crashed, { timezone: 'UTC' });
    // Nine earlier days, none consecutive: the text makes ten journal days, a milestone.
    const today = crashed.clock.now();
    for (let n = 1; n <= 9; n++) {
      const date = new Date(today.getTime() - 2 * n * 86_400_000).toISOString().slice(0, 10);
      await createEntry(crashed.ctx, user.id, createEntrySchema.parse({ content: `Day ${n}`, entry_date: date }));
    }
    // A media host that answers only when told: the live worker is held mid-processing.
    const png = await testImage('png');
    const held: Array<() => void> = [];
    const host = createServer((_req, res) => held.push(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png)));
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const restarted = await restart();
    try {
      const { port } = host.address() as AddressInfo;
      const messageSid = newMessageSid();
      await recordInboundText(crashed.ctx, { messageSid, from: user.phone, to: JOURNAL_NUMBER, body: 'the tenth day', media: [{ url: `http://127.0.0.1:${port}/ME1.png`, contentType: 'image/png' }] });
      const { id } = (await inboundRow(crashed, messageSid))!;

      const live = processInboundMessage(crashed.ctx, id);
      while (held.length < 1) await sleep(5); // claimed, fetching its photo
      const takeover = processInboundTexts(restarted.ctx); // started after that claim: takes it over
      while (held.length < 2) await sleep(5);
      for (const answer of held) answer();
      expect(await Promise.all([live, takeover])).toEqual([{ status: 'processed' }, { processed: 1, failed: 0 }]);

      const holding = (await journalOf(crashed, user.id)).filter((e) => e.content.includes('the tenth day'));
      expect(holding.map((e) => e.content)).toEqual(['the tenth day']);
      expect(holding[0]!.photos).toHaveLength(1);
      expect(await inboundRow(crashed, messageSid)).toMatchObject({ processed: 1, status: 'processed', kind: 'journal', entry_id: holding[0]!.id, attempts: 2 });
      const milestones = await crashed.ctx.db.selectFrom('sms_messages').select('dedupe_key').where('direction', '=', 'outbound').where('user_id', '=', user.id).where('kind', '=', 'milestone').execute();
      expect(milestones).toEqual([{ dedupe_key: `milestone:${user.id}:days:10` }]);
    } finally {
      await restarted.close();
      await new Promise((resolve) => host.close(resolve));
    }
  });
});

// Many texts at once: the webhook records each and answers; the job processes them afterwards, one
// a turn of the event loop, so the server keeps answering meanwhile.
describe('a burst of inbound texts', () => {
  let t: SmsTestApp;
  withTwilioApp((app) => ({ t } = app));

  const processedCount = async (sids: string[]) =>
    Number(
      (
        await t.ctx.db
          .selectFrom('sms_messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('provider_message_id', 'in', sids)
          .where('processed', '=', 1)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('records every text once, acknowledges a MessageSid repeated within the burst, and journals each text once', async () => {
    const user = await buildUser(t);
    const texts = Array.from({ length: 24 }, (_, i) => ({ MessageSid: newMessageSid(), AccountSid: TWILIO_SID, From: user.phone, To: JOURNAL_NUMBER, Body: `Burst text ${i + 1}.`, NumMedia: '0' }));
    const answers = await Promise.all([...texts, texts[5]!].map((params) => postTwilioWebhook(t, '/webhooks/twilio/sms', params)));
    expect(answers.map((res) => res.statusCode)).toEqual(answers.map(() => 200));
    expect(answers.every((res) => res.body === EMPTY_TWIML)).toBe(true);

    const sids = texts.map((text) => text.MessageSid);
    await inboundProcessingSettled(t.ctx);
    const rows = await t.ctx.db.selectFrom('sms_messages').select('provider_message_id').where('provider_message_id', 'in', sids).execute();
    expect(rows).toHaveLength(24);
    expect(await processedCount(sids)).toBe(24);
    const content = (await journalOf(t, user.id)).map((entry) => entry.content).join('\n');
    for (const text of texts) expect(content.split(text.Body)).toHaveLength(2);
  });

  it('keeps answering requests while a backlog of texts is processed', async () => {
    const user = await buildUser(t);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const sids: string[] = [];
    for (let i = 0; i < 40; i++) sids.push((await recordOnly(t, user.phone, `Backlog text ${i + 1}.`)).sid);
    const processing = processInboundTexts(t.ctx);
    // A real request over a socket, which the server reads only when the event loop polls for I/O:
    // it is answered long before the forty texts are through, not after all of them.
    const health = await fetch(`${address}/healthz`);
    expect(health.status).toBe(200);
    expect(await processedCount(sids)).toBeLessThan(40);

    await processing;
    expect(await processedCount(sids)).toBe(40);
    // One day entry holding every text, in the order they arrived.
    const [entry] = await journalOf(t, user.id);
    expect(entry!.content.split('\n\n')).toEqual(sids.map((_, i) => `Backlog text ${i + 1}.`));
  });
});
