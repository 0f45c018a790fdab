import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendSmsToDayEntry } from '../journal/sms-entries';
import { recordInboundText } from '../sms/inbound';
import { processInboundMessage } from '../sms/inbound-job';
import { apiClient, buildUser, signIn } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';
import { milestonesReached } from './service';

const day = (offset: number, from: Date) => new Date(from.getTime() + offset * 86_400_000).toISOString().slice(0, 10);

describe('milestones', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const milestoneTexts = (userId: string) =>
    t.app.ctx.db.selectFrom('sms_messages').select(['dedupe_key', 'to_number']).where('user_id', '=', userId).where('kind', '=', 'milestone').execute();

  it('knows which streaks and day counts are worth a text', () => {
    expect(milestonesReached({ current_streak: 7, total_days: 7 })).toEqual([{ kind: 'streak', count: 7 }]);
    expect(milestonesReached({ current_streak: 3, total_days: 50 })).toEqual([{ kind: 'days', count: 50 }]);
    expect(milestonesReached({ current_streak: 6, total_days: 11 })).toEqual([]);
  });

  it('texts a congratulation once when a new entry makes a seven-day streak', async () => {
    const user = await buildUser(t, { timezone: 'UTC' });
    const token = await signIn(t, user);
    const api = apiClient(t);
    const now = t.clock.now();
    for (let offset = -6; offset < 0; offset++) {
      expect((await api.post('/api/entries', { content: `Day ${offset}`, entry_date: day(offset, now) }, token)).status).toBe(201);
    }
    expect(await milestoneTexts(user.id)).toEqual([]);

    expect((await api.post('/api/entries', { content: 'Day seven' }, token)).status).toBe(201);
    expect(await milestoneTexts(user.id)).toEqual([{ dedupe_key: `milestone:${user.id}:streak:7`, to_number: user.phone }]);

    // Another entry the same day keeps the streak at seven: no second text.
    expect((await api.post('/api/entries', { content: 'Still day seven' }, token)).status).toBe(201);
    expect(await milestoneTexts(user.id)).toHaveLength(1);
  });

  it('congratulates the text that makes the streak, also when processed again after a crash before its check', async () => {
    const user = await buildUser(t, { timezone: 'UTC' });
    const token = await signIn(t, user);
    const now = t.clock.now();
    for (let offset = -6; offset < 0; offset++) {
      expect((await apiClient(t).post('/api/entries', { content: `Day ${offset}`, entry_date: day(offset, now) }, token)).status).toBe(201);
    }
    const text = async (messageSid: string, body: string) =>
      (await recordInboundText(t.app.ctx, { messageSid, from: user.phone, to: '+15555550100', body, media: [] })).id;

    // A first processing appended the text, then the process died before the milestone check.
    const id = await text(`SM${user.id.replaceAll('-', '')}a`, 'Day seven by text');
    await appendSmsToDayEntry(t.app.ctx, { userId: user.id, messageId: id, text: 'Day seven by text', receivedAt: now, media: [] });
    expect(await milestoneTexts(user.id)).toEqual([]);
    expect(await processInboundMessage(t.app.ctx, id)).toEqual({ status: 'processed' });
    expect(await milestoneTexts(user.id)).toEqual([{ dedupe_key: `milestone:${user.id}:streak:7`, to_number: user.phone }]);

    // A second text the same day adds to the day's entry: the streak is still seven, no second text.
    expect(await processInboundMessage(t.app.ctx, await text(`SM${user.id.replaceAll('-', '')}b`, 'And more'))).toEqual({ status: 'processed' });
    expect(await milestoneTexts(user.id)).toHaveLength(1);
  });

  it('sends nothing to a user whose phone is not verified', async () => {
    const user = await buildUser(t, { timezone: 'UTC', verified: false });
    const token = await signIn(t, user);
    const now = t.clock.now();
    for (let offset = -6; offset <= 0; offset++) {
      await apiClient(t).post('/api/entries', { content: `Day ${offset}`, entry_date: day(offset, now) }, token);
    }
    expect(await milestoneTexts(user.id)).toEqual([]);
  });
});
