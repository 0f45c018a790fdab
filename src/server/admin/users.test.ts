import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '../../shared/admin';
import { createEntry, journalUser, multipart, testImage, type JournalTestUser } from '../test/journal';
import { inboundProcessingSettled } from '../sms/inbound-job';
import { buildTestApp, type TestApp } from '../test/app';
import { apiClient, bearer, buildUser, signIn, type ApiClient, type TestUser } from '../test/factories';

const ROUTES: Array<['GET' | 'POST' | 'DELETE', string]> = [
  ['GET', '/api/admin/me'],
  ['GET', '/api/admin/metrics'],
  ['POST', '/api/admin/refresh-cache'],
  ['GET', '/api/admin/subscribers'],
  ['GET', '/api/admin/subscribers?format=csv'],
  ['GET', '/api/admin/trial-users'],
  ['POST', '/api/admin/sms-test'],
  ['GET', '/api/admin/sms-tests'],
  ['GET', '/api/admin/sms-health'],
  ['GET', '/api/admin/users?q=someone@example.com'],
  ['DELETE', '/api/admin/users/00000000-0000-4000-8000-000000000000'],
];

describe('admin access and user management', () => {
  let t: TestApp;
  let api: ApiClient;
  let admin: TestUser;
  let adminToken: string;

  beforeAll(async () => {
    t = await buildTestApp();
    api = apiClient(t);
    admin = await buildUser(t, { isAdmin: true });
    adminToken = await signIn(t, admin);
  });
  afterAll(() => t.close());

  const del = (id: string, payload: unknown, token = adminToken) =>
    t.app.inject({ method: 'DELETE', url: `/api/admin/users/${id}`, headers: bearer(token), payload: payload as object });

  it('refuses every route without a token (401) and to non-admins (403)', async () => {
    const plain = await buildUser(t);
    const token = await signIn(t, plain);
    for (const [method, url] of ROUTES) {
      const anonymous = await t.app.inject({ method, url });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const denied = await t.app.inject({ method, url, headers: bearer(token) });
      expect(denied.statusCode, `${method} ${url}`).toBe(403);
      expect(denied.json().error.message).toBe(adminMessages.accessDenied);
    }
  });

  it('confirms an admin', async () => {
    const res = await api.get('/api/admin/me', adminToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, user: { id: admin.id, email: admin.email } });
  });

  it('finds a user by id, e-mail or phone, without entry text or the full phone', async () => {
    const user = await journalUser(t);
    const row = await t.app.ctx.db.selectFrom('users').innerJoin('profiles', 'profiles.id', 'users.id').select(['users.email', 'profiles.phone_number']).where('users.id', '=', user.id).executeTakeFirstOrThrow();
    await createEntry(t, user, { content: 'a very private thought' });
    const national = row.phone_number.slice(2);
    const formatted = `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`;
    for (const q of [user.id, user.id.toUpperCase(), row.email, row.email.toUpperCase(), national, formatted, row.phone_number]) {
      const res = await api.get(`/api/admin/users?q=${encodeURIComponent(q)}`, adminToken);
      expect(res.status, q).toBe(200);
      expect(res.body.user).toMatchObject({
        id: user.id,
        email: row.email,
        phone_last_four: national.slice(-4),
        phone_verified: true,
        is_admin: false,
        counts: { journalEntries: 1, journalPhotos: 0, smsMessages: 0 },
        subscription: { subscribed: false, is_trial: true, hasAccess: true },
      });
      const json = JSON.stringify(res.body);
      expect(json).not.toContain('private thought');
      expect(json).not.toContain(national);
    }
  });

  it('explains a blank or unknown search', async () => {
    const blank = await api.get('/api/admin/users?q=%20%20', adminToken);
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toBe(adminMessages.searchRequired);
    for (const q of ['nobody@example.com', '00000000-0000-4000-8000-000000000000', '2025550199', 'hello']) {
      const res = await api.get(`/api/admin/users?q=${encodeURIComponent(q)}`, adminToken);
      expect(res.status, q).toBe(404);
      expect(res.body.error.message).toBe(adminMessages.userNotFound);
    }
  });

  const photoEntry = async (user: JournalTestUser, content: string) => {
    const entry = await createEntry(t, user, { content });
    const form = await multipart({}, [{ name: 'pic.jpeg', bytes: await testImage('jpeg') }]);
    const res = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBeLessThan(300);
    return entry;
  };
  const photoKeys = (userId: string) => t.app.ctx.db.selectFrom('journal_photos').select(['file_path', 'thumb_path']).where('user_id', '=', userId).execute();
  const stored = (key: string) => existsSync(join(t.app.ctx.config.storageUrl, key));

  it('deletes a user with everything of theirs and leaves others alone', async () => {
    const victimAccount = await buildUser(t, { timezone: 'UTC' });
    const victimToken = await signIn(t, victimAccount);
    const victim: JournalTestUser = { id: victimAccount.id, token: victimToken, headers: bearer(victimToken) };
    const other = await journalUser(t);
    await photoEntry(victim, 'victim secret words');
    await photoEntry(other, 'other secret words');
    // A text from the victim's phone goes through the dev phone into their journal.
    await t.app.inject({ method: 'POST', url: '/api/dev/phone/send', payload: { from: victimAccount.phone, body: 'texted secret words' } });
    await inboundProcessingSettled(t.app.ctx);
    const victimKeys = await photoKeys(victim.id);
    const otherKeys = await photoKeys(other.id);
    expect(victimKeys).toHaveLength(1);
    for (const k of [...victimKeys, ...otherKeys]) expect(stored(k.file_path)).toBe(true);

    const missing = await del(victim.id, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe(adminMessages.confirmationRequired);
    expect((await del(victim.id, { confirmationText: 'delete' })).statusCode).toBe(400);
    const self = await del(admin.id, { confirmationText: 'DELETE' });
    expect(self.statusCode).toBe(400);
    expect(self.json().error.message).toBe(adminMessages.cannotDeleteSelf);
    expect((await del('00000000-0000-4000-8000-000000000000', { confirmationText: 'DELETE' })).statusCode).toBe(404);

    const res = await del(victim.id, { confirmationText: 'DELETE' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.summary.userEmail).toBe(victimAccount.email);
    expect(body.summary.deletedRecords).toEqual({ journalEntries: 2, journalPhotos: 1, smsMessages: expect.any(Number) });
    expect(body.summary.deletedRecords.smsMessages).toBeGreaterThanOrEqual(1);
    expect([...body.summary.filesDeleted].sort()).toEqual([victimKeys[0]!.file_path, victimKeys[0]!.thumb_path].sort());
    expect(res.body).not.toContain('secret words');
    expect(res.body).not.toContain(victimAccount.phone.slice(2));

    const db = t.app.ctx.db;
    const left = async (table: 'journal_entries' | 'journal_photos' | 'sms_messages' | 'refresh_tokens' | 'subscribers', userId: string) =>
      (await db.selectFrom(table).select('user_id').where('user_id', '=', userId).execute()).length;
    for (const table of ['journal_entries', 'journal_photos', 'sms_messages', 'refresh_tokens', 'subscribers'] as const) {
      expect(await left(table, victim.id), table).toBe(0);
    }
    expect(await db.selectFrom('sms_messages').select('id').where((eb) => eb.or([eb('from_number', '=', victimAccount.phone), eb('to_number', '=', victimAccount.phone)])).execute()).toHaveLength(0);
    expect(await db.selectFrom('profiles').select('id').where('id', '=', victim.id).execute()).toHaveLength(0);
    expect(await db.selectFrom('users').select('id').where('id', '=', victim.id).execute()).toHaveLength(0);
    for (const k of victimKeys) {
      expect(stored(k.file_path)).toBe(false);
      expect(stored(k.thumb_path)).toBe(false);
    }
    expect(await left('journal_entries', other.id)).toBe(1);
    expect(await left('journal_photos', other.id)).toBe(1);
    for (const k of otherKeys) expect(stored(k.file_path)).toBe(true);
    expect((await api.get('/api/entries', other.token)).status).toBe(200);
    expect((await api.get('/api/entries', victim.token)).status).toBe(401);

    const event = await db.selectFrom('security_events').selectAll().where('event_type', '=', 'admin_user_deleted').where('identifier', '=', victim.id).executeTakeFirst();
    expect(event).toMatchObject({ severity: 'high', user_id: admin.id });
    expect((await api.get(`/api/admin/users?q=${victim.id}`, adminToken)).status).toBe(404);
  });
});
