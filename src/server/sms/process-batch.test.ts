import { describe, expect, it } from 'vitest';
import { buildUser } from '../test/factories';
import { recordInboundText } from './inbound';
import { InboundPacer } from './inbound-pacing';
import { processInboundMessages } from './process-inbound';
import { breakPhotoStorage, inboundRow, JOURNAL_NUMBER, journalOf, newMessageSid, type FakeMediaHost, type SmsTestApp, withTwilioApp } from './test-support';

// The queue hands texts over in batches: claimed in one statement, handled one after another,
// outcomes written together. Each text must still end exactly as it would on its own.
describe('processing texts in a batch', () => {
  let t: SmsTestApp;
  let media: FakeMediaHost;
  withTwilioApp((app) => ({ t, media } = app));

  const record = async (from: string, body: string, mediaUrls: string[] = []) => {
    const messageSid = newMessageSid();
    const { id } = await recordInboundText(t.ctx, { messageSid, from, to: JOURNAL_NUMBER, body, media: mediaUrls.map((url) => ({ url, contentType: 'image/png' })) });
    return { id, messageSid };
  };

  it('journals each text in order, records a failure for retry, and leaves a text another worker holds', async () => {
    const writer = await buildUser(t);
    const broken = await buildUser(t);
    const first = await record(writer.phone, 'Morning: coffee on the porch.');
    const failing = await record(broken.phone, 'A photo that cannot be stored', [media.photoUrl()]);
    const held = await record(writer.phone, 'Held by another worker.');
    const second = await record(writer.phone, 'Evening: a walk by the river.');
    await t.ctx.db.updateTable('sms_messages').set({ claimed_at: t.clock.now().toISOString(), attempts: 1 }).where('id', '=', held.id).execute();

    const repair = breakPhotoStorage(t, broken.id);
    const outcomes = await processInboundMessages(t.ctx, [first.id, failing.id, held.id, second.id], { pace: new InboundPacer() });
    repair();

    expect(outcomes.map((o) => o.status)).toEqual(['processed', 'failed', 'busy', 'processed']);
    const [entry, ...others] = await journalOf(t, writer.id);
    expect(others).toEqual([]);
    expect(entry!.content).toBe('Morning: coffee on the porch.\n\nEvening: a walk by the river.');
    for (const text of [first, second]) {
      expect(await inboundRow(t, text.messageSid)).toMatchObject({ processed: 1, status: 'processed', kind: 'journal', entry_id: entry!.id, body: null, attempts: 1 });
    }
    const failed = await inboundRow(t, failing.messageSid);
    expect(failed).toMatchObject({ processed: 0, status: 'failed', attempts: 1, claimed_at: null });
    expect(Date.parse(failed!.send_after!)).toBe(t.clock.now().getTime() + 30_000);
    expect(await journalOf(t, broken.id)).toEqual([]);
    // Untouched: still the other worker's, with its one attempt.
    expect(await inboundRow(t, held.messageSid)).toMatchObject({ processed: 0, status: 'received', attempts: 1 });
  });

  it('processes nothing twice when the same batch is handed over again', async () => {
    const user = await buildUser(t);
    const texts = [await record(user.phone, 'Once.'), await record(user.phone, 'Twice?')];
    const ids = texts.map((text) => text.id);
    expect((await processInboundMessages(t.ctx, ids)).map((o) => o.status)).toEqual(['processed', 'processed']);
    expect((await processInboundMessages(t.ctx, ids)).map((o) => o.status)).toEqual(['busy', 'busy']);
    expect((await journalOf(t, user.id)).map((e) => e.content)).toEqual(['Once.\n\nTwice?']);
  });
});
