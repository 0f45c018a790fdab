import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntry, journalUser } from '../test/journal';
import { buildSmsTestApp } from '../test/sms';
import type { TestApp } from '../test/app';
import { apiClient, buildUser, signIn, type ApiClient, type BuildUserOptions, type TestUser } from '../test/factories';

const DAY = 86_400_000;
// A fixed "now" far from the other tests' data, mid-month so month buckets are clear.
const NOW = new Date('2040-06-15T12:00:00.000Z');
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

describe('admin dashboard, subscribers and trial users', () => {
  let t: TestApp;
  let api: ApiClient;
  let adminToken: string;
  const users: Record<string, TestUser> = {};

  const userAt = async (name: string, created: Date, options: BuildUserOptions) => {
    t.clock.set(created);
    users[name] = await buildUser(t, { timezone: 'UTC', ...options });
    return users[name]!;
  };
  const entryAt = async (user: TestUser, when: Date, content: string) => {
    t.clock.set(when);
    const token = await signIn(t, user);
    await createEntry(t, { id: user.id, token, headers: { authorization: `Bearer ${token}` } }, { content });
  };
  const makePaid = (user: TestUser, subscribedAt: Date, extra: { cancelled_at?: string; subscription_end?: string } = {}) =>
    t.app.ctx.db
      .updateTable('subscribers')
      .set({ subscribed: 1, subscription_tier: 'monthly', subscribed_at: subscribedAt.toISOString(), ...extra })
      .where('user_id', '=', user.id)
      .execute();

  beforeAll(async () => {
    // The figures count every account in the database: on a database of its own, other tests stay out.
    t = await buildSmsTestApp();
    api = apiClient(t);
    const admin = await userAt('admin', at(-400 * DAY), { isAdmin: true });
    await userAt('u1', NOW, { trialEnd: at(5 * DAY) });
    await userAt('u2', at(-20 * DAY), { verified: false });
    await userAt('u3', at(-100 * DAY), { trialEnd: at(-90 * DAY) });
    await userAt('u4', at(-15 * DAY), { trialEnd: at(-5 * DAY) });
    await userAt('p1', at(-200 * DAY), { trialEnd: at(-190 * DAY) });
    await userAt('p2', at(-200 * DAY), { trialEnd: at(-190 * DAY) });
    await userAt('b0', at(-9 * DAY), { trialEnd: at(2 * 3_600_000) });
    await userAt('b1', at(-9 * DAY), { trialEnd: at(1 * DAY) });
    await userAt('b2', at(-9 * DAY), { trialEnd: at(2 * DAY) });
    await userAt('b3', at(-9 * DAY), { trialEnd: at(3 * DAY) });
    await userAt('x1', at(-40 * DAY), { trialEnd: at(-20 * DAY) });
    await entryAt(users.u1!, NOW, 'secret diary one');
    await entryAt(users.u1!, NOW, 'secret diary two');
    await entryAt(users.u2!, at(-20 * DAY), 'secret diary three');
    await entryAt(users.u3!, at(-95 * DAY), 'secret diary four');
    await makePaid(users.u2!, at(-12 * DAY));
    await makePaid(users.p1!, at(-3 * DAY));
    await makePaid(users.p2!, at(-60 * DAY), { cancelled_at: at(-2 * DAY).toISOString(), subscription_end: at(10 * DAY).toISOString() });
    t.clock.set(NOW);
    adminToken = await signIn(t, admin);
  });
  afterAll(() => t.close());

  const metrics = async (period?: string) => {
    await api.post('/api/admin/refresh-cache', {}, adminToken);
    const res = await api.get(`/api/admin/metrics${period ? `?period=${period}` : ''}`, adminToken);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    return res.body.metrics;
  };

  it('computes the headline figures', async () => {
    const m = await metrics();
    expect(m.period).toBe('today');
    expect(m.paidSubscribers).toBe(3);
    expect(m.trialUsers).toBe(5);
    // Converted in 30 days: u2, p1. Ended unpaid in 30 days: u4, x1.
    expect(m.trialConversionRate).toBe(50);
    const profiles = await t.app.ctx.db.selectFrom('profiles').select(['phone_verified']).execute();
    const verified = profiles.filter((p) => p.phone_verified === 1).length;
    expect(m.accountVerificationRate).toBe(Math.round((verified / profiles.length) * 1000) / 10);
    expect(m.accountVerificationRate).toBeGreaterThan(0);
    expect(m.accountVerificationRate).toBeLessThan(100);
  });

  it('counts entries and sign-ups per period, with a daily series', async () => {
    const expected: Record<string, { entries: number; signups: number; days: number }> = {
      today: { entries: 2, signups: 1, days: 1 },
      week: { entries: 2, signups: 1, days: 7 },
      month: { entries: 3, signups: 7, days: 30 },
      '3months': { entries: 3, signups: 8, days: 90 },
      '6months': { entries: 4, signups: 9, days: 180 },
      year: { entries: 4, signups: 11, days: 365 },
    };
    for (const [period, e] of Object.entries(expected)) {
      const m = await metrics(period);
      expect(m.period, period).toBe(period);
      expect(m.journalEntries.count, period).toBe(e.entries);
      expect(m.newSignups.count, period).toBe(e.signups);
      expect(m.series, period).toHaveLength(e.days);
      expect(m.series.at(-1).date, period).toBe('2040-06-15');
      expect(m.series.reduce((n: number, p: { entries: number }) => n + p.entries, 0), period).toBe(e.entries);
      expect(m.series.reduce((n: number, p: { signups: number }) => n + p.signups, 0), period).toBe(e.signups);
    }
    expect((await metrics('today')).avgEntriesPerUser).toBe(2);
    // 3 entries by 2 active users over 30/7 weeks.
    expect((await metrics('month')).avgEntriesPerUser).toBe(0.4);
  });

  it('refuses an unknown period', async () => {
    const res = await api.get('/api/admin/metrics?period=decade', adminToken);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
  });

  it('caches metrics for a minute until refreshed', async () => {
    const before = await metrics('week');
    await userAt('late', NOW, {});
    t.clock.set(NOW);
    const cached = await api.get('/api/admin/metrics?period=week', adminToken);
    expect(cached.body.metrics.newSignups.count).toBe(before.newSignups.count);
    t.clock.set(at(61_000));
    const expired = await api.get('/api/admin/metrics?period=week', adminToken);
    expect(expired.body.metrics.newSignups.count).toBe(before.newSignups.count + 1);
    const refreshed = await api.post('/api/admin/refresh-cache', {}, adminToken);
    expect(refreshed.body).toEqual({ success: true });
    // Undo the extra sign-up for the other tests.
    await t.app.ctx.db.deleteFrom('users').where('id', '=', users.late!.id).execute();
    t.clock.set(NOW);
    await api.post('/api/admin/refresh-cache', {}, adminToken);
  });

  it('lists paid subscribers with metrics, paging, search and masking', async () => {
    const res = await api.get('/api/admin/subscribers', adminToken);
    expect(res.status).toBe(200);
    const { subscribers, totalCount, metrics: m } = res.body.data;
    expect(totalCount).toBe(3);
    expect(subscribers.map((r: { id: string }) => r.id).sort()).toEqual([users.u2!.id, users.p1!.id, users.p2!.id].sort());
    expect(m).toEqual({ totalSubscribers: 3, newSubscribersThisMonth: 2, averageDuration: 0.8, cancelledThisMonth: 1 });
    const row = subscribers.find((r: { id: string }) => r.id === users.p1!.id);
    expect(row).toEqual({
      id: users.p1!.id,
      phone_last_four: users.p1!.phone.slice(-4),
      signup_date: at(-200 * DAY).toISOString(),
      subscription_date: at(-3 * DAY).toISOString(),
    });
    const json = JSON.stringify(res.body);
    for (const u of Object.values(users)) {
      expect(json).not.toContain(u.phone);
      expect(json).not.toContain(u.phone.slice(2));
      expect(json).not.toContain(u.email);
    }
    expect(json).not.toContain('secret diary');

    const page1 = await api.get('/api/admin/subscribers?page=1&limit=2', adminToken);
    const page2 = await api.get('/api/admin/subscribers?page=2&limit=2', adminToken);
    expect(page1.body.data.subscribers).toHaveLength(2);
    expect(page2.body.data.subscribers).toHaveLength(1);
    expect(page2.body.data.totalCount).toBe(3);
    const ids = [...page1.body.data.subscribers, ...page2.body.data.subscribers].map((r: { id: string }) => r.id);
    expect(new Set(ids).size).toBe(3);

    const found = await api.get(`/api/admin/subscribers?search=${users.p1!.phone.slice(-4)}`, adminToken);
    expect(found.body.data.subscribers.map((r: { id: string }) => r.id)).toContain(users.p1!.id);
    for (const r of found.body.data.subscribers) expect(r.phone_last_four).toBe(users.p1!.phone.slice(-4));
    expect((await api.get('/api/admin/subscribers?search=abcd', adminToken)).status).toBe(400);
    expect((await api.get('/api/admin/subscribers?page=0', adminToken)).status).toBe(400);
  });

  it('exports subscribers as a dated CSV attachment', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/subscribers?format=csv', headers: { authorization: `Bearer ${adminToken}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="subscribers-2040-06-15.csv"');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,phone_last_four,signup_date,subscription_date');
    expect(lines).toHaveLength(4);
    expect(res.body).toContain(users.p1!.id);
    for (const u of Object.values(users)) expect(res.body).not.toContain(u.phone);
  });

  it('lists active trials with ending-soon buckets', async () => {
    const res = await api.get('/api/admin/trial-users', adminToken);
    expect(res.status).toBe(200);
    const { trialUsers, totalCount, metrics: m } = res.body.data;
    expect(m).toEqual({
      newTrialsToday: 1,
      activeTrialUsers: 5,
      endingToday: 1,
      endingIn1Day: 1,
      endingIn2Days: 1,
      endingIn3Days: 1,
      expiredThisMonth: 1,
    });
    expect(totalCount).toBe(5);
    expect(trialUsers.map((r: { id: string }) => r.id)).toEqual(['b0', 'b1', 'b2', 'b3', 'u1'].map((n) => users[n]!.id));
    expect(trialUsers[0]).toEqual({
      id: users.b0!.id,
      phone_last_four: users.b0!.phone.slice(-4),
      signup_date: at(-9 * DAY).toISOString(),
      trial_end: at(2 * 3_600_000).toISOString(),
    });
    const json = JSON.stringify(res.body);
    for (const u of Object.values(users)) expect(json).not.toContain(u.phone.slice(2));

    const paged = await api.get('/api/admin/trial-users?limit=2&page=3', adminToken);
    expect(paged.body.data.trialUsers.map((r: { id: string }) => r.id)).toEqual([users.u1!.id]);
    const searched = await api.get(`/api/admin/trial-users?search=${users.b2!.phone.slice(-4)}`, adminToken);
    expect(searched.body.data.trialUsers.map((r: { id: string }) => r.id)).toContain(users.b2!.id);
    expect((await api.get('/api/admin/trial-users?status=maybe', adminToken)).status).toBe(400);
  });

  it('lists expired trials and exports trial users as CSV', async () => {
    const res = await api.get('/api/admin/trial-users?status=expired', adminToken);
    const ids = res.body.data.trialUsers.map((r: { id: string }) => r.id);
    expect(ids).toEqual(expect.arrayContaining([users.u4!.id, users.x1!.id, users.u3!.id]));
    expect(ids).not.toContain(users.u1!.id);
    expect(ids).not.toContain(users.p1!.id);
    // Most recently expired first.
    expect(ids.indexOf(users.u4!.id)).toBeLessThan(ids.indexOf(users.x1!.id));

    const csv = await t.app.inject({ method: 'GET', url: '/api/admin/trial-users?format=csv&status=active', headers: { authorization: `Bearer ${adminToken}` } });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="trial-users-2040-06-15.csv"');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,phone_last_four,signup_date,trial_end');
    expect(lines).toHaveLength(6);
  });

  it('serves the metrics to no one but admins', async () => {
    const plain = await journalUser(t);
    expect((await api.get('/api/admin/metrics', plain.token)).status).toBe(403);
    expect((await api.get('/api/admin/metrics')).status).toBe(401);
  });
});
