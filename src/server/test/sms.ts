import { afterAll, beforeAll } from 'vitest';
// Test helpers for the SMS slice: a fake Twilio REST API (fake-twilio.ts), real webhook signatures,
// and apps that can share one database (to play several instances). Imported by tests only.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import type { JournalEntry } from '../../shared/journal';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import type { SmsMessage } from '../db/tables';
import { testImage } from './journal';
import { createTwilioSms } from '../providers/sms/twilio';
import { buildTestApp, type TestApp } from './app';
import { bearer, signIn } from './factories';
import { JOURNAL_NUMBER, startFakeTwilio, TWILIO_SID, TWILIO_TOKEN_FOR_FAKE, type FakeTwilio } from './fake-twilio';
import { inboundProcessingSettled } from '../sms/inbound-job';

export { JOURNAL_NUMBER, startFakeTwilio, TWILIO_SID, type FakeTwilio, type FakeTwilioMessage } from './fake-twilio';
export const TWILIO_TOKEN = TWILIO_TOKEN_FOR_FAKE;
export const PUBLIC_URL = 'http://jotline.test';

/** X-Twilio-Signature: HMAC-SHA1 over the full URL followed by each sorted field name and value. */
export function twilioSignature(url: string, params: Record<string, string>, token = TWILIO_TOKEN): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', token).update(data).digest('base64');
}

export interface SmsTestApp extends TestApp {
  ctx: AppContext;
  /** Settings another instance needs to share this one's database and keys. */
  shared: { env: Record<string, string> };
}

/**
 * A test app for the SMS slice: Twilio mode when `twilio` is given (else the simulator), on a
 * database of its own — on PostgreSQL a fresh database, so no other test's sender claims our texts —
 * or on `sameDatabaseAs`'s database, to play a second instance.
 */
export async function buildSmsTestApp(
  options: {
    twilio?: FakeTwilio;
    sameDatabaseAs?: SmsTestApp;
    env?: Record<string, string>;
    /** How long a request to Twilio may go unanswered (15 s in the app). */
    twilioTimeoutMs?: number;
  } = {},
): Promise<SmsTestApp> {
  const own = options.sameDatabaseAs ? undefined : await ownDatabase();
  const shared = options.sameDatabaseAs?.shared ?? { env: { DATABASE_URL: own!.url, MASTER_KEY: randomBytes(32).toString('base64') } };
  const providerEnv: Record<string, string> = options.twilio
    ? {
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: TWILIO_SID,
        TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
        TWILIO_FROM: JOURNAL_NUMBER,
        TWILIO_API_URL: options.twilio.url,
      }
    : { SMS_PROVIDER: 'simulator' };
  const t = await buildTestApp({ PUBLIC_URL, JOURNAL_NUMBER, ...shared.env, ...providerEnv, ...options.env });
  const sms = t.app.ctx.config.sms;
  if (options.twilioTimeoutMs && sms.provider === 'twilio') t.app.ctx.sms = createTwilioSms({ ...sms, timeoutMs: options.twilioTimeoutMs });
  // Twilio dates its messages by the first app's clock, so lookups by time agree with the app's.
  if (options.twilio && !options.sameDatabaseAs && 'useClock' in options.twilio) options.twilio.useClock(t.clock);
  return {
    ...t,
    ctx: t.app.ctx,
    shared,
    async close() {
      await t.close();
      await own?.drop();
    },
  };
}

async function ownDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const dir = mkdtempSync(join(tmpdir(), 'jotline-sms-'));
    return { url: `sqlite:${join(dir, 'sms.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `jotline_sms_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const drop = async () => {
    // The app's pool may still be saying goodbye; forcing would kill its sockets mid-close.
    for (let attempt = 0; attempt < 30; attempt++) {
      try {
        return await admin(`drop database if exists ${name}`);
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  return { url: url.toString(), drop };
}

/** Posts form fields to a Twilio webhook path, signed unless `signature` says otherwise. */
export async function postTwilioWebhook(t: SmsTestApp, path: string, params: Record<string, string>, signature?: string | null) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const sig = signature === undefined ? twilioSignature(`${PUBLIC_URL}${path}`, params) : signature;
  if (sig !== null) headers['x-twilio-signature'] = sig;
  return t.app.inject({ method: 'POST', url: path, headers, payload: new URLSearchParams(params).toString() });
}

/**
 * The environment of a real `jotline serve` process on this test app's database, texting through the
 * fake Twilio with every background job on (the crash and several-instance tests run such processes).
 */
export function serveEnv(t: SmsTestApp, twilio: FakeTwilio): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    ...t.shared.env,
    PUBLIC_URL,
    JOURNAL_NUMBER,
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: TWILIO_SID,
    TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
    TWILIO_FROM: JOURNAL_NUMBER,
    TWILIO_API_URL: twilio.url,
    JOBS: 'on',
    LOG_LEVEL: 'warn',
    LOG_PRETTY: 'false',
  };
}

export const newMessageSid = () => 'SM' + randomBytes(16).toString('hex');

/** Texts the journal number from `from` (signed, as Twilio would) and waits for processing. */
export async function textJournal(t: SmsTestApp, from: string, body: string, extra: Record<string, string> = {}) {
  const params = { MessageSid: newMessageSid(), AccountSid: TWILIO_SID, From: from, To: JOURNAL_NUMBER, Body: body, NumMedia: '0', ...extra };
  const res = await postTwilioWebhook(t, '/webhooks/twilio/sms', params);
  await inboundProcessingSettled(t.ctx);
  return { res, sid: params.MessageSid, params };
}

export async function inboundRow(t: SmsTestApp, messageSid: string): Promise<SmsMessage | undefined> {
  return t.ctx.db.selectFrom('sms_messages').selectAll().where('provider_message_id', '=', messageSid).executeTakeFirst();
}

/** Outbound rows for a number, oldest first. */
export async function outboundTo(t: SmsTestApp, phone: string): Promise<SmsMessage[]> {
  return t.ctx.db
    .selectFrom('sms_messages')
    .selectAll()
    .where('direction', '=', 'outbound')
    .where('to_number', '=', phone)
    .orderBy('created_at')
    .execute();
}

export async function profileOf(t: SmsTestApp, userId: string) {
  return t.ctx.db.selectFrom('profiles').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
}

export interface FakeMediaHost {
  /** A URL on the host that serves a small real PNG (a fresh path each call). */
  photoUrl(): string;
  /** Headers of every request the host answered, oldest first. */
  requests: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** Where MMS media live (a stand-in for the provider's media host), on 127.0.0.1: any path is a PNG. */
export async function startFakeMediaHost(): Promise<FakeMediaHost> {
  const png = await testImage('png');
  const requests: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    requests.push(req.headers);
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  let next = 0;
  return {
    photoUrl: () => `${base}/media/ME${++next}.png`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Twilio's webhook fields for an MMS carrying the given media URLs. */
export function mmsFields(urls: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = { NumMedia: String(urls.length) };
  urls.forEach((url, i) => {
    fields[`MediaUrl${i}`] = url;
    fields[`MediaContentType${i}`] = 'image/png';
  });
  return fields;
}

/**
 * Makes the user's photo storage fail for real: a plain file where their photo folder goes, so
 * writing a photo fails in the file system. Returns a function that puts things right again.
 */
export function breakPhotoStorage(t: SmsTestApp, userId: string): () => void {
  const root = t.ctx.config.storageUrl;
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, userId), 'not a folder');
  return () => rmSync(join(root, userId), { force: true });
}

/** The user's journal as they read it in the app (GET /api/entries, first page), newest first. */
export async function journalOf(t: SmsTestApp, userId: string): Promise<JournalEntry[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/entries', headers: bearer(await signIn(t, { id: userId })) });
  if (res.statusCode !== 200) throw new Error(`GET /api/entries: ${res.statusCode} ${res.body}`);
  return (res.json() as { entries: JournalEntry[] }).entries;
}

/**
 * The journal of a user who cannot open it (no access), as they can still take it away:
 * GET /api/export?format=json. An empty journal reads as no entries.
 */
export async function exportedJournalOf(t: SmsTestApp, userId: string): Promise<Array<Omit<JournalEntry, 'photos'>>> {
  const res = await t.app.inject({ method: 'GET', url: '/api/export?format=json', headers: bearer(await signIn(t, { id: userId })) });
  if (res.statusCode === 400 && res.json().error.message === messages.entries.exportEmpty) return [];
  if (res.statusCode !== 200) throw new Error(`GET /api/export: ${res.statusCode} ${res.body}`);
  return (JSON.parse(res.body) as { entries: Array<Omit<JournalEntry, 'photos'>> }).entries;
}

/**
 * For one describe block: a fake Twilio, a host serving MMS photos, and an app wired to Twilio on a
 * database of its own, started before the tests and closed after them. `assign` receives them once
 * they are up.
 */
export function withTwilioApp(
  assign: (app: { twilio: FakeTwilio; media: FakeMediaHost; t: SmsTestApp }) => void,
  options: { env?: Record<string, string>; twilioTimeoutMs?: number } = {},
): void {
  let app: { twilio: FakeTwilio; media: FakeMediaHost; t: SmsTestApp } | undefined;
  beforeAll(async () => {
    const twilio = await startFakeTwilio();
    const media = await startFakeMediaHost();
    app = { twilio, media, t: await buildSmsTestApp({ twilio, ...options }) };
    assign(app);
  });
  afterAll(async () => {
    await app?.t.close();
    await app?.twilio.close();
    await app?.media.close();
  });
}

/**
 * Makes the database refuse every new inbound text (a trigger on SQLite, a check on PostgreSQL), as a
 * locked or full database would; resolves with what takes the refusal back.
 */
export async function refuseInboundTexts(ctx: AppContext): Promise<() => Promise<void>> {
  if (ctx.dbKind === 'sqlite') {
    await sql`CREATE TRIGGER refuse_inbound BEFORE INSERT ON sms_messages BEGIN SELECT RAISE(ABORT, 'refused'); END`.execute(ctx.db);
    return async () => void (await sql`DROP TRIGGER refuse_inbound`.execute(ctx.db));
  }
  await sql`ALTER TABLE sms_messages ADD CONSTRAINT refuse_inbound CHECK (direction <> 'inbound') NOT VALID`.execute(ctx.db);
  return async () => void (await sql`ALTER TABLE sms_messages DROP CONSTRAINT refuse_inbound`.execute(ctx.db));
}
