import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMS_TEST_TYPES, smsTestMessage } from '../../shared/admin';
import type { UserEvent } from '../events';
import { buildSmsTestApp, textJournal, type SmsTestApp } from '../test/sms';
import { apiClient, bearer, buildUser, signIn, type ApiAnswer, type ApiClient, type TestUser } from '../test/factories';

/** Every row of every table but the test log itself: what a dry run must leave as it was. */
async function everything(t: SmsTestApp): Promise<Record<string, string[]>> {
  const tables = (await t.ctx.db.introspection.getTables()).map((table) => table.name).filter((name) => name !== 'sms_test_logs' && !name.startsWith('kysely_'));
  const snapshot: Record<string, string[]> = {};
  for (const table of tables.sort()) {
    // Every table, whatever its columns: by name, as the database lists them.
    const rows: unknown[] = await t.ctx.db.selectFrom(table as 'users').selectAll().execute();
    snapshot[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return snapshot;
}

describe('the admin’s SMS tests are a dry run', () => {
  let t: SmsTestApp;
  let api: ApiClient;
  let adminToken: string;
  let customer: TestUser;
  let customerToken: string;
  const events: UserEvent[] = [];
  let kicks = 0;

  beforeAll(async () => {
    t = await buildSmsTestApp();
    api = apiClient(t);
    adminToken = await signIn(t, await buildUser(t, { isAdmin: true }));
    customer = await buildUser(t, { timezone: 'UTC' });
    customerToken = await signIn(t, customer);
    // The customer's own journal: a web entry and today's texted one.
    expect((await api.post('/api/entries', { content: 'Private words the team must never see.' }, customerToken)).status).toBe(201);
    await textJournal(t, customer.phone, 'A private text about my morning.');
    t.ctx.events.subscribe(customer.id, (event) => events.push(event));
    t.ctx.jobs.listen(() => (kicks += 1));
  });
  afterAll(() => t.close());

  const runTest = (testType: string, phoneNumber: string, messageContent?: string) =>
    api.post('/api/admin/sms-test', { testType, phoneNumber, ...(messageContent === undefined ? {} : { messageContent }) }, adminToken);
  const journal = async () => (await t.app.inject({ method: 'GET', url: '/api/entries', headers: bearer(customerToken) })).json();

  it('runs all six tests through every step against an account and leaves its journal, texts and outbound queue as they were', async () => {
    const shown = await journal();
    const before = await everything(t);
    events.length = 0;
    kicks = 0;

    const answers: Array<ApiAnswer['body']> = [];
    for (const type of SMS_TEST_TYPES) answers.push((await runTest(type, customer.phone.slice(2))).body);

    expect(await everything(t)).toEqual(before);
    expect(await journal()).toEqual(shown);
    expect(events).toEqual([]);
    expect(kicks).toBe(0);
    expect(t.ctx.simulators.sms!.sentTo(customer.phone)).toEqual([]);

    const byType = Object.fromEntries(SMS_TEST_TYPES.map((type, i) => [type, answers[i]]));
    for (const type of ['short', 'medium', 'long', 'unicode'] as const) {
      expect(byType[type].summary, type).toEqual({ passedSteps: 6, totalSteps: 6, userFound: true, userVerified: true, hasActiveSubscription: true, entryCreated: true });
      expect(byType[type].steps.map((s: { name: string }) => s.name)).toEqual(['User lookup', 'Phone verification', 'Subscription check', 'Text recorded', 'Message processing', 'Journal entry']);
      expect(byType[type].steps.at(-1).message).toMatch(/^Would be added to the journal entry for \d{4}-\d{2}-\d{2} \(dry run: nothing was written\)$/);
      for (const step of byType[type].steps) expect(step.durationMs).toEqual(expect.any(Number));
    }
    expect(byType.empty.summary.entryCreated).toBe(false);
    expect(byType.empty.steps.at(-1).message).toBe('Empty message: nothing would be added to the journal');

    // What a real oversized text gets: refused whole, and its sender asked to split it.
    expect(byType.oversized.success).toBe(false);
    expect(byType.oversized.summary).toMatchObject({ userFound: true, userVerified: true, hasActiveSubscription: true, entryCreated: false });
    const [, , , recorded, processing, entry] = byType.oversized.steps;
    expect(recorded).toMatchObject({ name: 'Text recorded', success: true });
    expect(processing).toMatchObject({ success: false, message: 'Refused: 15,000 characters, over the 1,600-character limit of one text; would reply by text (too_long), not sent' });
    expect(entry).toMatchObject({ success: false, message: 'Not added: a text over 1,600 characters (15,000) is refused and its sender asked to split it' });
    expect(smsTestMessage('oversized')).toHaveLength(15_000);
    // The long test fits one text (Twilio's 1,600 characters): it is journaled, as a long text from a phone is.
    expect(smsTestMessage('long').length).toBeLessThanOrEqual(1600);
    expect(smsTestMessage('long').length).toBeGreaterThan(1500);

    // The answers and the log speak of the test text only, never of the customer's journal.
    const logs = (await api.get('/api/admin/sms-tests', adminToken)).body;
    for (const said of [JSON.stringify(answers), JSON.stringify(logs)]) {
      expect(said).not.toContain('Private words');
      expect(said).not.toContain('private text');
      expect(said).not.toContain(customer.phone.slice(2));
    }
    expect(logs.tests).toHaveLength(6);
    expect(logs.tests.every((log: { webhook_status: string }) => log.webhook_status.startsWith('dry_run:'))).toBe(true);
  });

  it('rehearses commands and keywords too, changing nothing (a STOP does not opt the customer out)', async () => {
    const before = await everything(t);
    events.length = 0;
    kicks = 0;
    for (const text of ['STOP', 'START', 'HELP', 'LINK', 'PAUSE 3', 'RESUME', 'REMIND 9pm', 'UNDO', 'YESTERDAY: forgot this', 'YES', 'COMMANDS']) {
      const res = await runTest('short', customer.phone, text);
      expect(res.status, text).toBe(200);
      expect(res.body.steps.find((s: { name: string }) => s.name === 'Message processing').success, text).toBe(true);
    }
    expect(await everything(t)).toEqual(before);
    expect(events).toEqual([]);
    expect(kicks).toBe(0);
  });

  it('rehearses a text for a Vault user too, showing no content and sealing nothing', async () => {
    const sealed = await buildUser(t, { timezone: 'UTC' });
    const token = await signIn(t, sealed);
    const vault = await api.put('/api/vault', { public_key: randomBytes(32).toString('base64'), wrapped_keys: { v: 1 } }, token);
    expect(vault.status).toBe(200);
    const before = await everything(t);
    const res = await runTest('medium', sealed.phone);
    expect(res.body.summary).toMatchObject({ userFound: true, userVerified: true, hasActiveSubscription: true, entryCreated: true });
    expect(JSON.stringify(res.body)).not.toContain('good day');
    expect(await everything(t)).toEqual(before);
  });

  it('says what an unknown number and an unverified phone would get, sending them nothing', async () => {
    const stranger = '+12025550187';
    const unknown = await runTest('short', stranger);
    expect(unknown.body.summary).toMatchObject({ userFound: false, entryCreated: false });
    expect(unknown.body.steps.at(-1).message).toBe('Unknown number: a sign-up hint would be sent instead');
    expect(unknown.body.steps.find((s: { name: string }) => s.name === 'Message processing').message).toBe('Processed as unknown_number; would reply by text (signup_hint), not sent');

    const pending = await buildUser(t, { verified: false });
    const unverified = await runTest('short', pending.phone);
    expect(unverified.body.summary).toMatchObject({ userFound: true, userVerified: false, entryCreated: false });
    expect(unverified.body.steps.at(-1).message).toBe('Unverified phone: the user would be asked to reply YES');
    const sent = await t.ctx.db.selectFrom('sms_messages').select('id').where('to_number', 'in', [stranger, pending.phone]).execute();
    expect(sent).toEqual([]);
  });
});
