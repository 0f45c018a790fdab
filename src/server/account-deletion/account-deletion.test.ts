import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { startFakeStripe, stripeWebhook, type FakeStripe } from '../test/billing';
import { createEntry, multipart, testImage, type JournalTestUser } from '../test/journal';
import { inboundProcessingSettled } from '../sms/inbound-job';
import { buildSmsTestApp } from '../test/sms';
import type { TestApp } from '../test/app';
import { apiClient, bearer, buildUser, signIn, signInSession, uniquePhone, type ApiClient } from '../test/factories';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('deleting an account (the user’s own, and by an admin)', () => {
  let t: TestApp;
  let stripe: FakeStripe;
  let api: ApiClient;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    // A database of its own: the fake Stripe's ids start again with every run.
    t = await buildSmsTestApp({ env: stripe.env });
    t.clock.set(new Date('2026-06-01T12:00:00Z'));
    api = apiClient(t);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  /** A subscriber (checkout completed with the fake Stripe) with an entry, a photo and a text. */
  async function subscriberWithJournal() {
    const account = await buildUser(t, { trialEnd: new Date(t.clock.now().getTime() - DAY_MS), timezone: 'UTC' });
    const session = await signInSession(t, account);
    const token = session.access_token;
    const checkout = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    expect(checkout.status).toBe(200);
    const sub = stripe.subscribe(stripe.sessions.get(checkout.body.sessionId)!, t.clock.now());
    expect((await api.get(`/api/subscription?session_id=${checkout.body.sessionId}`, token)).status).toBe(200);
    const user: JournalTestUser = { id: account.id, token, headers: bearer(token) };
    const entry = await createEntry(t, user, { content: 'my secret words' });
    const form = await multipart({}, [{ name: 'pic.jpeg', bytes: await testImage('jpeg') }]);
    const upload = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
    expect(upload.statusCode).toBeLessThan(300);
    await t.app.inject({ method: 'POST', url: '/api/dev/phone/send', payload: { from: account.phone, body: 'texted words' } });
    await inboundProcessingSettled(t.app.ctx);
    return { account, session, token, sub };
  }

  const photoKeys = (userId: string) => t.app.ctx.db.selectFrom('journal_photos').select(['file_path', 'thumb_path']).where('user_id', '=', userId).execute();
  const stored = (key: string) => existsSync(join(t.app.ctx.config.storageUrl, key));
  const rowsOf = async (userId: string) => ({
    entries: (await t.app.ctx.db.selectFrom('journal_entries').select('id').where('user_id', '=', userId).execute()).length,
    users: (await t.app.ctx.db.selectFrom('users').select('id').where('id', '=', userId).execute()).length,
  });
  const deleteOwn = (token: string, payload: unknown) => t.app.inject({ method: 'DELETE', url: '/api/auth/user', headers: bearer(token), payload: payload as object });

  it('cancels the subscription first, deletes everything of the user, signs out everywhere and answers a summary', async () => {
    const { account, session, token, sub } = await subscriberWithJournal();
    const other = await subscriberWithJournal();
    const keys = await photoKeys(account.id);
    expect(keys).toHaveLength(1);
    expect(stored(keys[0]!.file_path)).toBe(true);

    const res = await deleteOwn(token, { confirmationText: 'DELETE' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      summary: {
        userEmail: account.email,
        deletedRecords: { journalEntries: 2, journalPhotos: 1, smsMessages: expect.any(Number) },
        filesDeleted: expect.arrayContaining([keys[0]!.file_path, keys[0]!.thumb_path]),
        subscriptionCanceled: true,
      },
    });
    expect(res.body).not.toContain('secret words');

    // Billing: the subscription was cancelled at Stripe, so nothing is charged again.
    expect(stripe.subs.get(sub.id)!.status).toBe('canceled');
    expect(stripe.subs.get(other.sub.id)!.status).toBe('active');
    // Data and files gone; the other subscriber untouched.
    expect(await rowsOf(account.id)).toEqual({ entries: 0, users: 0 });
    expect(stored(keys[0]!.file_path)).toBe(false);
    expect(stored(keys[0]!.thumb_path)).toBe(false);
    expect((await rowsOf(other.account.id)).entries).toBe(2);
    const left = await t.app.ctx.db.selectFrom('sms_messages').select('id').where((eb) => eb.or([eb('user_id', '=', account.id), eb('from_number', '=', account.phone), eb('to_number', '=', account.phone)])).execute();
    expect(left).toEqual([]);
    // Signed out everywhere: the access token and the refresh token are both dead.
    expect((await api.get('/api/auth/user', token)).status).toBe(401);
    const refresh = await t.app.inject({ method: 'POST', url: '/api/auth/token', payload: { grant_type: 'refresh_token', refresh_token: session.refresh_token } });
    expect(refresh.statusCode).toBeGreaterThanOrEqual(400);
    expect(refresh.statusCode).toBeLessThan(500);
    // The account's e-mail address is free again.
    expect(await t.app.ctx.db.selectFrom('users').select('id').where('email', '=', account.email).executeTakeFirst()).toBeUndefined();

    // Stripe's late news of the cancellation finds nobody and brings nothing back.
    const late = await t.app.inject(stripeWebhook('customer.subscription.deleted', stripe.subs.get(sub.id), { now: t.clock.now() }));
    expect(late.statusCode).toBe(200);
    expect(await t.app.ctx.db.selectFrom('subscribers').select('id').where('user_id', '=', account.id).execute()).toEqual([]);
    expect(await rowsOf(account.id)).toEqual({ entries: 0, users: 0 });
  });

  /** The columns (table.column) that hold the account's id, e-mail or number in some row. */
  async function columnsNaming(account: { id: string; email: string; phone: string }): Promise<string[]> {
    const found: string[] = [];
    const db = t.app.ctx.db;
    for (const table of await db.introspection.getTables()) {
      if (table.name === 'kysely_migration' || table.name === 'kysely_migration_lock') continue;
      for (const column of table.columns) {
        for (const needle of [account.id, account.email, account.phone]) {
          const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table.name)} where cast(${sql.ref(column.name)} as text) like ${`%${needle}%`}`.execute(db);
          if (Number(rows[0]!.n) > 0) found.push(`${table.name}.${column.name}`);
        }
      }
    }
    return found;
  }
  /** Every column naming the account except the deletion's own audit record. */
  const leftOf = async (account: { id: string; email: string; phone: string }) => (await columnsNaming(account)).filter((c) => !/^security_events\.(identifier|details)$/.test(c));

  it('leaves no row in any table that names the account, its e-mail or its number (the deletion’s own audit record aside)', async () => {
    const { account, token } = await subscriberWithJournal();
    // More of what an account leaves behind: another text (UNDO's record), a reminder time, a second sign-in.
    await t.app.inject({ method: 'POST', url: '/api/dev/phone/send', payload: { from: account.phone, body: 'more texted words' } });
    await inboundProcessingSettled(t.app.ctx);
    expect((await api.patch('/api/profile', { reminder_enabled: true, reminder_time: '20:00' }, token)).status).toBe(200);
    await signIn(t, account);
    expect((await columnsNaming(account)).length).toBeGreaterThan(5);

    expect((await deleteOwn(token, { confirmationText: 'DELETE' })).statusCode).toBe(200);
    const audits = await t.app.ctx.db.selectFrom('security_events').select(['event_type', 'identifier']).where('identifier', '=', account.id).execute();
    expect(audits).toEqual([{ event_type: 'account_deleted', identifier: account.id }]);
    // The audit record names the id it deleted (identifier, details), and nothing else does.
    expect(await leftOf(account)).toEqual([]);
  });

  it('takes a text being processed at that moment with it: the text lands first and goes, or finds no account', async () => {
    const { account, token } = await subscriberWithJournal();
    await t.app.inject({ method: 'POST', url: '/api/dev/phone/send', payload: { from: account.phone, body: 'a text at the last moment' } });
    const [deleted] = await Promise.all([deleteOwn(token, { confirmationText: 'DELETE' }), inboundProcessingSettled(t.app.ctx)]);
    expect(deleted.statusCode).toBe(200);
    await inboundProcessingSettled(t.app.ctx);
    expect(await leftOf(account)).toEqual([]);
  });

  it('asks for DELETE typed exactly, and deletes nothing otherwise', async () => {
    const account = await buildUser(t);
    const token = await signIn(t, account);
    await createEntry(t, { id: account.id, token, headers: bearer(token) }, { content: 'keep me' });
    for (const payload of [{}, { confirmationText: 'delete' }, { confirmationText: ' DELETE' }, { confirmationText: 5 }]) {
      const res = await deleteOwn(token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toBe(messages.accountDeletion.confirmationRequired);
    }
    expect(await rowsOf(account.id)).toEqual({ entries: 1, users: 1 });
    expect((await t.app.inject({ method: 'DELETE', url: '/api/auth/user', payload: { confirmationText: 'DELETE' } })).statusCode).toBe(401);
  });

  it('deletes nothing when Stripe cannot cancel the subscription, and says to try again', async () => {
    const { account, token, sub } = await subscriberWithJournal();
    const keys = await photoKeys(account.id);
    stripe.failNext(`/v1/subscriptions/${sub.id}`, 500, { error: { type: 'api_error', message: 'boom' } });
    const res = await deleteOwn(token, { confirmationText: 'DELETE' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.message).toBe(messages.accountDeletion.billingFailed);
    expect(await rowsOf(account.id)).toEqual({ entries: 2, users: 1 });
    expect(stored(keys[0]!.file_path)).toBe(true);
    expect(stripe.subs.get(sub.id)!.status).toBe('active');
    // Trying again works.
    expect((await deleteOwn(token, { confirmationText: 'DELETE' })).statusCode).toBe(200);
    expect(stripe.subs.get(sub.id)!.status).toBe('canceled');
  });

  it('says no subscription was cancelled for a user in the trial', async () => {
    const account = await buildUser(t);
    const res = await deleteOwn(await signIn(t, account), { confirmationText: 'DELETE' });
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toMatchObject({ userEmail: account.email, subscriptionCanceled: false, deletedRecords: { journalEntries: 0, journalPhotos: 0 } });
  });

  it('an admin deleting a subscriber cancels the subscription first and says so', async () => {
    const admin = await buildUser(t, { isAdmin: true });
    const { account, sub } = await subscriberWithJournal();
    const res = await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${account.id}`, headers: bearer(await signIn(t, admin)), payload: { confirmationText: 'DELETE' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toMatchObject({ userEmail: account.email, subscriptionCanceled: true, deletedRecords: { journalEntries: 2, journalPhotos: 1 } });
    expect(stripe.subs.get(sub.id)!.status).toBe('canceled');
    const cancel = stripe.calls.find((c) => c.method === 'DELETE' && c.path === `/v1/subscriptions/${sub.id}`);
    expect(cancel).toBeDefined();
  });

  it('deleting a sign-up that only claimed a number leaves the texts of the number’s owner', async () => {
    const phone = uniquePhone();
    const owner = await buildUser(t, { phone, verified: false });
    const claimer = await buildUser(t, { phone, verified: false });
    // The owner's YES finds two sign-ups; the owner picks theirs by its code.
    await t.app.inject({ method: 'POST', url: '/api/dev/phone/send', payload: { from: phone, body: 'YES' } });
    await inboundProcessingSettled(t.app.ctx);
    const { verification_code } = await t.app.ctx.db.selectFrom('profiles').select('verification_code').where('id', '=', owner.id).executeTakeFirstOrThrow();
    await t.app.inject({ method: 'POST', url: '/api/dev/phone/send', payload: { from: phone, body: verification_code! } });
    await inboundProcessingSettled(t.app.ctx);
    const texts = () => t.app.ctx.db.selectFrom('sms_messages').select('id').where((eb) => eb.or([eb('from_number', '=', phone), eb('to_number', '=', phone)])).execute();
    const before = await texts();
    expect(before.length).toBeGreaterThanOrEqual(3);

    expect((await deleteOwn(await signIn(t, claimer), { confirmationText: 'DELETE' })).statusCode).toBe(200);
    expect(await texts()).toEqual(before);
  });

  it('closes the user’s open event streams', async () => {
    const account = await buildUser(t);
    const token = await signIn(t, account);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/api/events`, { headers: bearer(token) });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read(); // ": connected"
    expect((await deleteOwn(token, { confirmationText: 'DELETE' })).statusCode).toBe(200);
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return true;
    })();
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3000).unref());
    expect(await Promise.race([ended, timeout])).toBe(true);
  });
});
