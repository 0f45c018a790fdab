import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, buildUser, signIn } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';

describe('the profile: GET and PATCH /api/profile', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('needs sign-in', async () => {
    expect((await apiClient(t).get('/api/profile')).status).toBe(401);
    expect((await apiClient(t).patch('/api/profile', { reminder_enabled: false })).status).toBe(401);
  });

  it('shows the owner their profile with the spec defaults and nothing internal', async () => {
    const user = await buildUser(t, { timezone: 'America/Chicago' });
    const res = await apiClient(t).get('/api/profile', await signIn(t, user));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: user.id,
      timezone: 'America/Chicago',
      phone_number: user.phone,
      phone_verified: true,
      created_at: expect.any(String),
      is_opted_out: false,
      reminder_enabled: true,
      reminder_time: '20:00',
      reminder_timezone: 'America/Chicago',
      weekly_recap_enabled: true,
      prompts_enabled: true,
      on_this_day_enabled: true,
      paused_until: null,
      journal_number: t.app.ctx.config.journalNumber,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/salt|next_reminder/);
  });

  it('saves reminder settings and tells the other tabs', async () => {
    const user = await buildUser(t);
    const heard: unknown[] = [];
    const unsubscribe = t.app.ctx.events.subscribe(user.id, (event) => heard.push(event));
    const changes = { reminder_enabled: false, reminder_time: '07:45', reminder_timezone: 'Pacific/Honolulu', weekly_recap_enabled: false, prompts_enabled: false };
    const res = await apiClient(t).patch('/api/profile', changes, await signIn(t, user));
    unsubscribe();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(changes);
    expect(heard).toEqual([{ type: 'profile.updated' }]);
    const again = await apiClient(t).get('/api/profile', await signIn(t, user));
    expect(again.body).toMatchObject(changes);
  });

  it('refuses times off the quarter hour, unknown zones and fields a user may not set', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    const client = apiClient(t);
    const bad = [
      { reminder_time: '20:10' },
      { reminder_time: '8pm' },
      { reminder_timezone: 'Europe/Paris' },
      { timezone: 'Mars/Olympus' },
      { phone_verified: true },
      { is_opted_out: false },
      { reminder_enabled: 'yes' },
    ];
    for (const body of bad) {
      const res = await client.patch('/api/profile', body, token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as { error: { message: string } }).error.message).toBeTruthy();
    }
    const unchanged = await client.get('/api/profile', token);
    expect(unchanged.body).toMatchObject({ reminder_time: '20:00', phone_verified: true, is_opted_out: false });
  });
});

describe('the subscription status: GET /api/subscription', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('shows a new account in its 10-day trial', async () => {
    const trialEnd = new Date(t.clock.now().getTime() + 10 * 86_400_000);
    const user = await buildUser(t, { trialEnd });
    const res = await apiClient(t).get('/api/subscription', await signIn(t, user));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ subscribed: false, subscription_tier: null, subscription_end: null, is_trial: true, trial_end: trialEnd.toISOString(), cancel_at_period_end: false });
  });

  it('needs sign-in', async () => {
    expect((await apiClient(t).get('/api/subscription')).status).toBe(401);
  });
});
