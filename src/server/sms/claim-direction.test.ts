import { describe, expect, it } from 'vitest';
import { buildUser } from '../test/factories';
import { recordInboundText } from './inbound';
import { enqueueSms } from './outbound';
import { processInboundMessages } from './process-inbound';
import { JOURNAL_NUMBER, newMessageSid, type SmsTestApp, withTwilioApp } from './test-support';

// The claim of a batch compares the direction without an index (db/filter-only.ts): the comparison
// must still hold, so an outbound text's id, were it ever in a batch, is neither claimed nor handled.
describe('claiming a batch of inbound texts', () => {
  let t: SmsTestApp;
  withTwilioApp((app) => ({ t } = app));

  it('takes the inbound texts it names and leaves an outbound one alone', async () => {
    const user = await buildUser(t);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      ids.push((await recordInboundText(t.ctx, { messageSid: newMessageSid(), from: user.phone, to: JOURNAL_NUMBER, body: `Text ${i}`, media: [] })).id);
    }
    await enqueueSms(t.ctx, { userId: user.id, to: user.phone, body: 'A reply', kind: 'command_reply', dedupeKey: 'claim-direction-reply' });
    const outbound = await t.ctx.db.selectFrom('sms_messages').select('id').where('direction', '=', 'outbound').executeTakeFirstOrThrow();

    const outcomes = await processInboundMessages(t.ctx, [...ids, outbound.id]);

    expect(outcomes.map((o) => o.status)).toEqual([...ids.map(() => 'processed'), 'busy']);
    expect(await t.ctx.db.selectFrom('sms_messages').select(['status', 'attempts', 'claimed_at', 'processed']).where('id', '=', outbound.id).executeTakeFirstOrThrow()).toEqual({
      status: 'pending',
      attempts: 0,
      claimed_at: null,
      processed: 0,
    });
  });
});
