import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up } from '../db/migrations/2026-11-29-0300-processed-bodies';
import { buildSmsTestApp, inboundRow, newMessageSid, postTwilioWebhook, JOURNAL_NUMBER, TWILIO_SID, type SmsTestApp } from '../test/sms';
import { uniquePhone } from '../test/factories';

// Before 2026-11-29-0300, a processed text kept its body unless it was journaled (a command, a text
// from a number no one had verified). The migration drops those; a text still waiting keeps its own.
describe('migration 2026-11-29-0300-processed-bodies', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());

  it('drops the body and media links of every processed inbound text, and keeps a waiting text’s', async () => {
    const db = t.ctx.db as unknown as Kysely<any>;
    const record = async () => {
      const sid = newMessageSid();
      await postTwilioWebhook(t, '/webhooks/twilio/sms', { MessageSid: sid, AccountSid: TWILIO_SID, From: uniquePhone(), To: JOURNAL_NUMBER, Body: 'hello?', NumMedia: '0' });
      return sid;
    };
    const processedBefore = await record();
    const waiting = await record();
    // As an earlier version left it: processed, its body and a media link kept.
    await db.updateTable('sms_messages').set({ processed: 1, status: 'processed', kind: 'unknown_number', media: '[{"url":"https://api.twilio.com/m/ME1","contentType":"image/jpeg"}]' }).where('provider_message_id', '=', processedBefore).execute();

    await up(db);
    expect(await inboundRow(t, processedBefore)).toMatchObject({ processed: 1, body: null, media: null });
    expect((await inboundRow(t, waiting))!.body).toMatch(/^ENC:/);
  });
});
