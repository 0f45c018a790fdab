import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages, smsTestMessage } from '../../shared/admin';
import { newId } from '../ids';
import { buildSmsTestApp, textJournal, type SmsTestApp } from '../test/sms';
import { apiClient, buildUser, signIn, uniquePhone, type ApiClient } from '../test/factories';

describe('admin SMS testing and health', () => {
  let t: SmsTestApp;
  let api: ApiClient;
  let adminToken: string;

  beforeAll(async () => {
    // Health reads every text in the database: on a database of its own, other tests' texts stay out.
    t = await buildSmsTestApp();
    api = apiClient(t);
    adminToken = await signIn(t, await buildUser(t, { isAdmin: true }));
  });
  afterAll(() => t.close());

  it('rehearses a text through every step for a verified user, and nothing reaches the journal', async () => {
    const user = await buildUser(t, { timezone: 'UTC' });
    const res = await api.post('/api/admin/sms-test', { testType: 'short', phoneNumber: user.phone.slice(2), messageContent: 'admin test secret words' }, adminToken);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.summary).toEqual({ passedSteps: 6, totalSteps: 6, userFound: true, userVerified: true, hasActiveSubscription: true, entryCreated: true });
    expect(res.body.steps.map((s: { name: string }) => s.name)).toEqual(['User lookup', 'Phone verification', 'Subscription check', 'Text recorded', 'Message processing', 'Journal entry']);
    for (const s of res.body.steps) expect(s).toEqual({ name: expect.any(String), success: true, message: expect.any(String), durationMs: expect.any(Number) });
    expect(res.body.timing.durationMs).toEqual(expect.any(Number));
    expect(JSON.stringify(res.body)).not.toContain(user.phone.slice(2));
    const entries = await t.app.ctx.db.selectFrom('journal_entries').select(['source']).where('user_id', '=', user.id).execute();
    expect(entries).toEqual([]);
  });

  it('reports the failing steps for an unknown number and an empty text', async () => {
    const unknown = await api.post('/api/admin/sms-test', { testType: 'medium', phoneNumber: uniquePhone() }, adminToken);
    expect(unknown.status).toBe(200);
    expect(unknown.body.success).toBe(false);
    expect(unknown.body.summary).toMatchObject({ userFound: false, userVerified: false, hasActiveSubscription: false, entryCreated: false });
    expect(unknown.body.error).toBe('No account uses this phone number');

    const user = await buildUser(t, { verified: false });
    const unverified = await api.post('/api/admin/sms-test', { testType: 'short', phoneNumber: user.phone }, adminToken);
    expect(unverified.body.summary).toMatchObject({ userFound: true, userVerified: false, entryCreated: false });

    const verified = await buildUser(t);
    const empty = await api.post('/api/admin/sms-test', { testType: 'empty', phoneNumber: verified.phone, messageContent: '' }, adminToken);
    expect(empty.body.summary).toMatchObject({ userFound: true, userVerified: true, hasActiveSubscription: true, entryCreated: false });
    expect(empty.body.steps.at(-1).message).toBe('Empty message: nothing would be added to the journal');
  });

  it('refuses an oversized text as a real one is refused, building the type’s message when none is given', async () => {
    const user = await buildUser(t);
    const res = await api.post('/api/admin/sms-test', { testType: 'oversized', phoneNumber: user.phone }, adminToken);
    expect(res.status).toBe(200);
    expect(res.body.summary.entryCreated).toBe(false);
    expect(res.body.error).toMatch(/^Refused: 15,000 characters/);
    expect(smsTestMessage('oversized')).toHaveLength(15_000);
  });

  it('requires a phone number and a known test type', async () => {
    for (const phoneNumber of [undefined, '', '   ']) {
      const res = await api.post('/api/admin/sms-test', { testType: 'short', phoneNumber }, adminToken);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(adminMessages.phoneRequired);
    }
    expect((await api.post('/api/admin/sms-test', { testType: 'short', phoneNumber: '123' }, adminToken)).body.error.message).toBe(adminMessages.invalidPhone);
    expect((await api.post('/api/admin/sms-test', { testType: 'huge', phoneNumber: uniquePhone() }, adminToken)).status).toBe(400);
  });

  it('lists the latest tests with masked phones and short previews', async () => {
    const user = await buildUser(t);
    const medium = smsTestMessage('medium');
    // The test clock stands still: move it so this run is the latest.
    t.clock.advance(1000);
    await api.post('/api/admin/sms-test', { testType: 'medium', phoneNumber: user.phone, messageContent: medium }, adminToken);
    const res = await api.get('/api/admin/sms-tests', adminToken);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const [latest] = res.body.tests;
    expect(latest).toMatchObject({ test_type: 'medium', phone_number: `(•••) •••-${user.phone.slice(-4)}`, success: true, webhook_status: 'dry_run:journal' });
    expect(latest.message_content.length).toBeLessThanOrEqual(100);
    expect(JSON.parse(latest.webhook_response).summary).toMatchObject({ passedSteps: 6, totalSteps: 6, entryCreated: true });
    expect(JSON.stringify(res.body)).not.toContain(user.phone.slice(2));
    for (let i = 0; i < 20; i++) await api.post('/api/admin/sms-test', { testType: 'empty', phoneNumber: uniquePhone(), messageContent: '' }, adminToken);
    expect((await api.get('/api/admin/sms-tests', adminToken)).body.tests).toHaveLength(20);
  });

  it('reports SMS health with measured processing times', async () => {
    // The tests above were dry runs: a real text gives health something to measure.
    await textJournal(t, (await buildUser(t)).phone, 'A real text from a real phone.');
    const res = await api.get('/api/admin/sms-health', adminToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, overall_status: 'healthy', checks_passed: 4, checks_failed: 0 });
    expect(res.body.checks.map((c: { name: string }) => c.name)).toEqual(['database', 'outbound_sender', 'inbound_backlog', 'provider']);
    expect(res.body.stats.messages24h).toBeGreaterThan(0);
    expect(res.body.stats.avgProcessingMs).toEqual(expect.any(Number));
    expect(res.body.stats.successRate).toBeGreaterThan(0);

    // A text that never went out and an inbound text nobody processed.
    const old = new Date(t.clock.now().getTime() - 30 * 60_000).toISOString();
    const base = { user_id: null, provider_message_id: null, dedupe_key: null, from_number: '+15555550100', to_number: uniquePhone(), body: null, media: null, segments: null, processing_ms: null, error_code: null, entry_id: null, entry_date: null, claimed_at: null, send_after: null, created_at: old, updated_at: old };
    await t.app.ctx.db.insertInto('sms_messages').values({ ...base, id: newId(), direction: 'outbound', kind: 'reminder', status: 'pending', error_message: null }).execute();
    await t.app.ctx.db.insertInto('sms_messages').values({ ...base, id: newId(), direction: 'inbound', kind: 'inbound', status: 'failed', error_message: 'boom' }).execute();
    const degraded = await api.get('/api/admin/sms-health', adminToken);
    expect(degraded.body).toMatchObject({ overall_status: 'degraded', checks_passed: 2, checks_failed: 2 });
    expect(degraded.body.stats.recentErrors).toEqual([{ at: old, error: 'boom' }]);
    expect(degraded.body.stats.successRate).toBeLessThan(100);
  });
});
