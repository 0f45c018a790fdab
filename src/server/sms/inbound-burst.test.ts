import { describe, expect, it } from 'vitest';
import { commitTogether } from '../db/group-commit';
import { buildUser } from '../test/factories';
import { inboundProcessingSettled, processInBackground, recordInboundText } from './inbound';
import { EMPTY_TWIML } from './routes';
import { JOURNAL_NUMBER, journalOf, newMessageSid, postTwilioWebhook, TWILIO_SID, type SmsTestApp, withTwilioApp } from './test-support';

// Many texts at once: the webhook records each durably (texts arriving together are committed
// together), answers, and the texts are processed afterwards, a few at a time, while the server
// keeps answering.
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

  it('records every text once, acknowledges a MessageSid repeated within the burst, and journals each text', async () => {
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
    const sids = Array.from({ length: 40 }, () => newMessageSid());
    const recorded = await Promise.all(
      sids.map((sid, i) => recordInboundText(t.ctx, { messageSid: sid, from: user.phone, to: JOURNAL_NUMBER, body: `Backlog text ${i + 1}.`, media: [] })),
    );
    for (const { id } of recorded) processInBackground(t.ctx, id, t.app.log);
    // A real request over a socket, which the server reads only when the event loop polls for I/O:
    // it is answered long before the forty texts are through, not after all of them.
    const health = await fetch(`${address}/healthz`);
    expect(health.status).toBe(200);
    expect(await processedCount(sids)).toBeLessThan(40);

    await inboundProcessingSettled(t.ctx);
    expect(await processedCount(sids)).toBe(40);
    // One day entry holding every text, in the order they arrived.
    const [entry] = await journalOf(t, user.id);
    const order = sids.map((_, i) => entry!.content.indexOf(`Backlog text ${i + 1}.`));
    expect(order.every((at) => at >= 0)).toBe(true);
    if (t.ctx.dbKind === 'sqlite') expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('goes on processing while texts keep arriving, and finishes once they stop', async () => {
    const user = await buildUser(t);
    const sids: string[] = [];
    // A text every millisecond or so for half a second: the queue is never quiet meanwhile, so on
    // SQLite processing takes only its share of the loop (inbound-pacing.ts).
    const until = performance.now() + 500;
    while (performance.now() < until) {
      const sid = newMessageSid();
      sids.push(sid);
      const { id } = await recordInboundText(t.ctx, { messageSid: sid, from: user.phone, to: JOURNAL_NUMBER, body: `Steady text ${sids.length}.`, media: [] });
      processInBackground(t.ctx, id, t.app.log);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(await processedCount(sids)).toBeGreaterThan(0);

    await inboundProcessingSettled(t.ctx);
    expect(await processedCount(sids)).toBe(sids.length);
    const [entry] = await journalOf(t, user.id);
    expect(sids.every((_, i) => entry!.content.includes(`Steady text ${i + 1}.`))).toBe(true);
  });

  it('commits writes made together, and one that fails takes none of the others with it', async () => {
    const ids = [newMessageSid(), newMessageSid()];
    const insert = (sid: string) => () =>
      commitTogether(t.ctx, (db) =>
        db
          .insertInto('sms_messages')
          .values({ id: sid, user_id: null, direction: 'inbound', provider_message_id: sid, from_number: '+15555550111', to_number: JOURNAL_NUMBER, kind: 'inbound', status: 'received', created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z' })
          .execute(),
      );
    const failing = commitTogether(t.ctx, async () => {
      throw new Error('this write fails');
    });
    const results = await Promise.allSettled([insert(ids[0]!)(), failing, insert(ids[1]!)()]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const stored = await t.ctx.db.selectFrom('sms_messages').select('id').where('id', 'in', ids).execute();
    expect(stored).toHaveLength(2);
  });

  it('commits a write made in the next turn of the event loop with the one before it (SQLite; PostgreSQL commits each at once)', async () => {
    // Each write is told whether it runs inside the batch's transaction.
    const inTransaction = (db: { isTransaction: boolean }) => Promise.resolve(db.isTransaction);
    const first = commitTogether(t.ctx, inTransaction);
    const second = await new Promise<Promise<boolean>>((resolve) => setImmediate(() => resolve(commitTogether(t.ctx, inTransaction))));
    const together = t.ctx.dbKind === 'sqlite';
    expect(await Promise.all([first, second])).toEqual([together, together]);
    // A write alone is committed on its own, without waiting for company.
    expect(await commitTogether(t.ctx, inTransaction)).toBe(false);
  });
});
