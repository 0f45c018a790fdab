import { afterAll, beforeAll } from 'vitest';
// Test helpers for the SMS slice: a fake Twilio REST API, real webhook signatures, and apps that
// can share one database (to play several instances). Imported by tests only.
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
import { testImage } from '../journal/test-helpers';
import { createTwilioSms } from '../providers/sms/twilio';
import { buildTestApp, type TestApp } from '../test/app';
import { bearer, signIn } from '../test/factories';
import { inboundProcessingSettled } from './inbound-job';

export const TWILIO_SID = 'AC' + '0'.repeat(32);
export const TWILIO_TOKEN = 'test-twilio-auth-token';
export const JOURNAL_NUMBER = '+15555550100';
export const PUBLIC_URL = 'http://jotline.test';

export interface FakeTwilioMessage {
  sid: string;
  to: string;
  from: string;
  /** Empty once redacted. */
  body: string;
  statusCallback: string | null;
  messagingServiceSid: string | null;
  direction: 'outbound-api' | 'inbound';
  status: string;
  dateCreated: Date;
  /** Null while Twilio still holds an outbound message in its queue. */
  dateSent: Date | null;
  /** Sids of the message's media (MMS), until deleted. */
  media: string[];
}

type FakeFailure = { status: number; code?: number; retryAfter?: string };

export interface FakeTwilio {
  url: string;
  /** Every accepted Messages.json post, oldest first. */
  sent: FakeTwilioMessage[];
  sentTo(phone: string): FakeTwilioMessage[];
  /** The next `times` posts answer with this Twilio error instead of sending (429s with Retry-After when given). */
  failNext(failure: FakeFailure, times?: number): void;
  /** Every request answers with this failure until called with null: the whole API is down. */
  outage(failure: FakeFailure | null): void;
  /** The next `times` posts are never answered, and no message is made (the request is lost). */
  hangNext(times?: number): void;
  /** The next `times` posts make their message, then are never answered. */
  acceptThenHangNext(times?: number): void;
  /** The next `times` posts make their message, then the connection drops without an answer. */
  acceptThenDropNext(times?: number): void;
  /** While true, accepted messages stay queued (no date sent yet), as in a Messaging Service's queue. */
  holdQueued: boolean;
  /** A text a phone sent to the journal number, as Twilio keeps it (with `media` photos); send its sid in the webhook. */
  receive(text: { from: string; to?: string; body: string; media?: number }): FakeTwilioMessage;
  /** Any message Twilio holds, by sid. */
  message(sid: string): FakeTwilioMessage | undefined;
  /** Every request, oldest first: method and path with query. */
  requests: Array<{ method: string; path: string }>;
  /** Twilio's clock, for message dates (the app's manual clock in tests; real time until set). */
  useClock(clock: { now(): Date }): void;
  close(): Promise<void>;
}

/** Twilio's dates: RFC 2822 in GMT. */
const twilioDate = (date: Date | null) => (date ? date.toUTCString().replace('GMT', '+0000') : null);

function twilioJson(m: FakeTwilioMessage) {
  return {
    sid: m.sid,
    to: m.to,
    from: m.from,
    body: m.body,
    status: m.status,
    direction: m.direction,
    date_created: twilioDate(m.dateCreated),
    date_sent: twilioDate(m.dateSent),
    num_media: String(m.media.length),
    messaging_service_sid: m.messagingServiceSid,
  };
}

/**
 * Twilio's Messages API on 127.0.0.1, answering as Twilio does (JSON, or an error with its code):
 * sending, the list (To, DateSent>, paging), redaction (POST Body= to a message) and media (list,
 * DELETE); and failing as Twilio does: errors, outages, 429 with Retry-After, hangs, and messages
 * made and then never answered.
 */
export async function startFakeTwilio(): Promise<FakeTwilio> {
  const sent: FakeTwilioMessage[] = [];
  const messages = new Map<string, FakeTwilioMessage>();
  const failures: FakeFailure[] = [];
  const hangs: Array<'hang' | 'accept-then-hang' | 'accept-then-drop'> = [];
  const requests: Array<{ method: string; path: string }> = [];
  const held = new Set<import('node:http').ServerResponse>();
  let down: FakeFailure | null = null;
  let clock: { now(): Date } = { now: () => new Date() };
  const newSid = (prefix: string) => prefix + randomBytes(16).toString('hex');
  const fake: Omit<FakeTwilio, 'url' | 'close'> = {
    sent,
    sentTo: (phone) => sent.filter((m) => m.to === phone),
    failNext(failure, times = 1) {
      for (let i = 0; i < times; i++) failures.push(failure);
    },
    outage(failure) {
      down = failure;
    },
    hangNext: (times = 1) => void hangs.push(...Array<'hang'>(times).fill('hang')),
    acceptThenHangNext: (times = 1) => void hangs.push(...Array<'accept-then-hang'>(times).fill('accept-then-hang')),
    acceptThenDropNext: (times = 1) => void hangs.push(...Array<'accept-then-drop'>(times).fill('accept-then-drop')),
    holdQueued: false,
    receive(text) {
      const now = clock.now();
      const message: FakeTwilioMessage = {
        sid: newSid(text.media ? 'MM' : 'SM'),
        to: text.to ?? JOURNAL_NUMBER,
        from: text.from,
        body: text.body,
        statusCallback: null,
        messagingServiceSid: null,
        direction: 'inbound',
        status: 'received',
        dateCreated: now,
        dateSent: now,
        media: Array.from({ length: text.media ?? 0 }, () => newSid('ME')),
      };
      messages.set(message.sid, message);
      return message;
    },
    message: (sid) => messages.get(sid),
    requests,
    useClock(c) {
      clock = c;
    },
  };

  const create = (form: URLSearchParams): FakeTwilioMessage => {
    const now = clock.now();
    const message: FakeTwilioMessage = {
      sid: newSid('SM'),
      to: form.get('To') ?? '',
      from: form.get('From') ?? '',
      body: form.get('Body') ?? '',
      statusCallback: form.get('StatusCallback'),
      messagingServiceSid: form.get('MessagingServiceSid'),
      direction: 'outbound-api',
      status: fake.holdQueued ? 'queued' : 'sent',
      dateCreated: now,
      dateSent: fake.holdQueued ? null : now,
      media: [],
    };
    sent.push(message);
    messages.set(message.sid, message);
    return message;
  };

  const list = (query: URLSearchParams) => {
    const to = query.get('To');
    const sentOn = query.get('DateSent>');
    const size = Number(query.get('PageSize') ?? 50);
    const page = Number(query.get('Page') ?? 0);
    const matching = [...messages.values()]
      .filter((m) => (!to || m.to === to) && (!sentOn || (m.dateSent !== null && m.dateSent.toISOString().slice(0, 10) >= sentOn)))
      .sort((a, b) => b.dateCreated.getTime() - a.dateCreated.getTime());
    const more = matching.length > (page + 1) * size;
    const next = new URLSearchParams(query);
    next.set('Page', String(page + 1));
    return {
      messages: matching.slice(page * size, (page + 1) * size).map(twilioJson),
      page,
      page_size: size,
      next_page_uri: more ? `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json?${next}` : null,
    };
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://twilio.test');
      requests.push({ method: req.method ?? '', path: `${url.pathname}${url.search}` });
      const form = new URLSearchParams(raw);
      const answer = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body === undefined ? undefined : JSON.stringify(body));
      const refuse = (f: FakeFailure) => answer(f.status, { code: f.code, message: 'refused', status: f.status }, f.retryAfter ? { 'retry-after': f.retryAfter } : {});
      const notFound = () => answer(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      if (down) return refuse(down);
      const path = url.pathname.replace(/^\/2010-04-01\/Accounts\/[^/]+/, '');
      const one = /^\/Messages\/(\w+)\.json$/.exec(path);
      const media = /^\/Messages\/(\w+)\/Media\.json$/.exec(path);
      const medium = /^\/Messages\/(\w+)\/Media\/(\w+)\.json$/.exec(path);
      if (req.method === 'POST' && path === '/Messages.json') {
        const failure = failures.shift();
        if (failure) return refuse(failure);
        const hang = hangs.shift();
        if (hang === 'hang') return void held.add(res);
        const message = create(form);
        if (hang === 'accept-then-hang') return void held.add(res);
        if (hang === 'accept-then-drop') return void res.socket?.destroy();
        // Twilio answers a new message as queued, whatever happens to it next.
        return answer(201, { ...twilioJson(message), status: 'queued' });
      }
      if (req.method === 'GET' && path === '/Messages.json') return answer(200, list(url.searchParams));
      if (req.method === 'POST' && one) {
        const message = messages.get(one[1]!);
        if (!message) return notFound();
        if (form.get('Body') !== '') return answer(400, { code: 21619, message: 'A text message body is required', status: 400 });
        if (message.dateSent === null) return answer(400, { message: 'Cannot redact a message Twilio has not sent yet', status: 400 });
        message.body = '';
        return answer(200, twilioJson(message));
      }
      if (req.method === 'GET' && media) {
        const message = messages.get(media[1]!);
        if (!message) return notFound();
        return answer(200, { media_list: message.media.map((sid) => ({ sid, parent_sid: message.sid, content_type: 'image/png' })), next_page_uri: null });
      }
      if (req.method === 'DELETE' && medium) {
        const message = messages.get(medium[1]!);
        if (!message?.media.includes(medium[2]!)) return notFound();
        message.media = message.media.filter((sid) => sid !== medium[2]);
        return answer(204);
      }
      notFound();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // The same object: create() reads the holdQueued the test sets.
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.socket?.destroy();
        server.close(() => resolve());
      }),
  });
}

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
