import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSmsTestApp } from '../test/sms';
import type { TestApp } from '../test/app';
import { apiClient, buildUser, signIn, type ApiClient, type TestUser } from '../test/factories';

const DAY = 86_400_000;
const NOW = new Date('2041-03-10T12:00:00.000Z');
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

describe('admin figures: paid means charged', () => {
  let t: TestApp;
  let api: ApiClient;
  let admin: TestUser;
  /** Signed in at the test clock's now (a token lasts an hour). */
  const adminToken = () => signIn(t, admin);
  const users: Record<string, TestUser> = {};

  const withPlan = (user: TestUser, status: 'active' | 'trialing', cancelledAt?: Date) =>
    t.app.ctx.db
      .updateTable('subscribers')
      .set({
        subscribed: 1,
        is_trial: 0,
        subscription_status: status,
        subscription_tier: 'yearly',
        subscription_end: at(30 * DAY).toISOString(),
        subscribed_at: at(-2 * DAY).toISOString(),
        cancelled_at: cancelledAt?.toISOString() ?? null,
      })
      .where('user_id', '=', user.id)
      .execute();

  beforeAll(async () => {
    // The figures count every account in the database: on a database of its own, other tests stay out.
    t = await buildSmsTestApp();
    api = apiClient(t);
    t.clock.set(at(-300 * DAY));
    admin = await buildUser(t, { isAdmin: true, trialEnd: at(-290 * DAY) });
    t.clock.set(at(-3 * DAY));
    users.charged = await buildUser(t, { trialEnd: at(-1 * DAY) });
    users.choseAPlan = await buildUser(t, { trialEnd: at(5 * DAY) });
    users.cancelledInTrial = await buildUser(t, { trialEnd: at(5 * DAY) });
    users.trial = await buildUser(t, { trialEnd: at(5 * DAY) });
    t.clock.set(at(-60_000));
    users.unverified = await buildUser(t, { verified: false });
    await withPlan(users.charged, 'active');
    await withPlan(users.choseAPlan, 'trialing');
    await withPlan(users.cancelledInTrial, 'trialing', at(-DAY));
    t.clock.set(NOW);
  });
  afterAll(() => t.close());

  it('counts only charged subscriptions as paid, and a trial that chose a plan as converting', async () => {
    await api.post('/api/admin/refresh-cache', {}, await adminToken());
    const res = await api.get('/api/admin/metrics', await adminToken());
    expect(res.status).toBe(200);
    expect(res.body.metrics.paidSubscribers).toBe(1);
    expect(res.body.metrics.convertingTrials).toBe(1);
    // Running trials of verified accounts: the plain one and the one that cancelled its plan.
    expect(res.body.metrics.trialUsers).toBe(2);
    // Resolved in 30 days: one charged, none lapsed (the rest are still in their trials).
    expect(res.body.metrics.trialConversionRate).toBe(100);

    const subscribers = await api.get('/api/admin/subscribers', await adminToken());
    expect(subscribers.body.data.subscribers.map((r: { id: string }) => r.id)).toEqual([users.charged!.id]);
    expect(subscribers.body.data.metrics.totalSubscribers).toBe(1);
  });

  it('does not count a cancelled plan in its trial as a conversion once the trial ends', async () => {
    t.clock.set(at(6 * DAY));
    await t.app.ctx.db
      .updateTable('subscribers')
      .set({ subscribed: 0, subscription_status: 'canceled' })
      .where('user_id', '=', users.cancelledInTrial!.id)
      .execute();
    await api.post('/api/admin/refresh-cache', {}, await adminToken());
    const res = await api.get('/api/admin/metrics', await adminToken());
    // Charged: one. Ended unpaid: the plain trial and the cancelled plan.
    expect(res.body.metrics.trialConversionRate).toBe(33.3);
    t.clock.set(NOW);
    await t.app.ctx.db
      .updateTable('subscribers')
      .set({ subscribed: 1, subscription_status: 'trialing' })
      .where('user_id', '=', users.cancelledInTrial!.id)
      .execute();
  });

  it('leaves unverified sign-ups, which lapse within minutes, out of the trial users', async () => {
    const res = await api.get('/api/admin/trial-users', await adminToken());
    expect(res.status).toBe(200);
    const ids = res.body.data.trialUsers.map((r: { id: string }) => r.id);
    expect(ids).not.toContain(users.unverified!.id);
    expect(ids).toEqual(expect.arrayContaining([users.trial!.id, users.cancelledInTrial!.id]));
    expect(ids).not.toContain(users.choseAPlan!.id);
    expect(res.body.data.metrics.activeTrialUsers).toBe(2);
    expect(res.body.data.metrics.newTrialsToday).toBe(0);
  });
});
