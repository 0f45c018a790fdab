import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, sleep, until } from '../test/processes';
import { buildUser, type TestUser } from '../test/factories';
import { buildSmsTestApp, JOURNAL_NUMBER, PUBLIC_URL, serveEnv, startFakeTwilio, TWILIO_SID, twilioSignature, type FakeTwilio, type SmsTestApp } from '../test/sms';

const ROUNDS = 5;
/** People texting; the load spreads over them, a few texts each, as a real evening's does. */
const WRITERS = 150;
/** Texts in flight at once, each sender pausing 50 ms after its answer: up to about 100 texts/s, the evening peak. */
const SENDERS = 12;
/** How long PostgreSQL stays away in each round, and the deadline for every answer and every recovery. */
const OUTAGE_MS = 2_000;
const DEADLINE_MS = 5_000;
const UNAVAILABLE = { error: { code: 'UNAVAILABLE', message: 'Jotline is briefly unavailable. Please try again in a moment.' } };
/** A MessageSid as Twilio makes them (SM and 32 hex digits): a kind of text, then a number. */
const messageSid = (kind: number, n: number) => `SM${kind.toString(16).padStart(4, '0')}${n.toString(16).padStart(28, '0')}`;

/**
 * A TCP door between the instances and PostgreSQL. Shut, it refuses connections as a restarting server
 * does; the fault itself is PostgreSQL's own: pg_terminate_backend on every connection of the database.
 */
async function startDoor(target: URL): Promise<{ port: number; shut(): void; cut(): void; open(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const port = await freePort();
  let server: Server | undefined;
  const open = () =>
    new Promise<void>((done) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        const pair = [client, upstream];
        for (const socket of pair) {
          sockets.add(socket);
          socket.on('error', () => {});
          socket.on('close', () => pair.forEach((s) => (s.destroy(), sockets.delete(s))));
        }
        client.pipe(upstream).pipe(client);
      }).listen(port, '127.0.0.1', done);
    });
  await open();
  return {
    port,
    shut: () => void server?.close(),
    /** Drops what is still open: a connection let in just before the door shut got past the kill. */
    cut: () => sockets.forEach((s) => s.destroy()),
    open,
  };
}

interface Instance {
  name: string;
  url: string;
  process: ChildProcess;
  output: string;
  exit?: string;
}

interface Text {
  sid: string;
  writer: number;
  body: string;
  /** The first delivery's answer: an HTTP status, or 'hung' past the deadline. */
  answer?: number | 'hung' | 'failed';
}

/** A page's realtime stream, as the browser opens it (ticket, then the event stream); `text` grows as events arrive. */
async function openPage(instance: Instance, token: string): Promise<{ text: string; close(): void }> {
  const ticket = await fetch(`${instance.url}/api/events/ticket`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  const abort = new AbortController();
  const res = await fetch(`${instance.url}/api/events?ticket=${((await ticket.json()) as { ticket: string }).ticket}`, { signal: abort.signal });
  expect(res.status).toBe(200);
  const page = { text: '', close: () => abort.abort() };
  const decoder = new TextDecoder();
  const reader = res.body!.getReader();
  void (async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) page.text += decoder.decode(chunk.value, { stream: true });
  })().catch(() => {});
  return page;
}

const writeEntry = (instance: Instance, token: string, content: string) =>
  fetch(`${instance.url}/api/entries`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
    signal: AbortSignal.timeout(DEADLINE_MS),
  });

/** Delivers a text as Twilio does, signed; a 5xx is what makes Twilio try again. */
async function deliver(instance: Instance, from: string, text: Pick<Text, 'sid' | 'body'>): Promise<{ status: number | 'hung' | 'failed'; body: string }> {
  const params = { MessageSid: text.sid, AccountSid: TWILIO_SID, From: from, To: JOURNAL_NUMBER, Body: text.body, NumMedia: '0' };
  const path = '/webhooks/twilio/sms';
  try {
    const res = await fetch(`${instance.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(`${PUBLIC_URL}${path}`, params) },
      body: new URLSearchParams(params).toString(),
      signal: AbortSignal.timeout(DEADLINE_MS),
    });
    return { status: res.status, body: await res.text() };
  } catch (err) {
    return { status: err instanceof Error && err.name === 'TimeoutError' ? 'hung' : 'failed', body: String(err) };
  }
}

const healthOf = (instance: Instance) =>
  fetch(`${instance.url}/healthz`, { signal: AbortSignal.timeout(DEADLINE_MS) }).then(
    (r) => r.status,
    () => 0,
  );

/** Every entry's content in a user's journal, through the API, every page. */
async function journalText(instance: Instance, token: string): Promise<string> {
  const contents: string[] = [];
  let cursor: string | undefined;
  do {
    const res = await fetch(`${instance.url}/api/entries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { entries: Array<{ content: string }>; nextCursor: string | null };
    contents.push(...page.entries.map((e) => e.content));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return contents.join('\n\n');
}

// Two real `jotline serve` processes on one PostgreSQL database, with every background job on, texted
// continuously while PostgreSQL kills all their connections and refuses new ones for a while, five times.
describe.runIf(/^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL ?? ''))('PostgreSQL going away under inbound load', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  let door: Awaited<ReturnType<typeof startDoor>>;
  let admin: pg.Client;
  let dataDir: string;
  const instances: Instance[] = [];
  const writers: TestUser[] = [];
  /** One per round, each watching realtime on B, and one whose HELP shows the sender working at the end. */
  const watchers: TestUser[] = [];
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    // Creates the database and the users; its own jobs are off.
    t = await buildSmsTestApp({ twilio });
    for (let i = 0; i < WRITERS; i++) writers.push(await buildUser(t, { phone: `+1512${7_000_000 + i}` }));
    for (let i = 0; i <= ROUNDS; i++) watchers.push(await buildUser(t, { phone: `+1512${8_000_000 + i}` }));
    const databaseUrl = new URL(t.shared.env.DATABASE_URL!);
    admin = new pg.Client({ connectionString: databaseUrl.toString() });
    await admin.connect();
    door = await startDoor(databaseUrl);
    const throughDoor = new URL(databaseUrl);
    throughDoor.hostname = '127.0.0.1';
    throughDoor.port = String(door.port);

    dataDir = mkdtempSync(join(tmpdir(), 'jotline-pg-faults-'));
    const env = { ...serveEnv(t, twilio), DATABASE_URL: throughDoor.toString() };
    for (const name of ['A', 'B']) {
      const port = await freePort();
      const child = spawn(process.execPath, [resolve('bin/jotline.mjs'), 'serve'], {
        env: { ...env, PORT: String(port), DATA_DIR: join(dataDir, name) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const instance: Instance = { name, url: `http://127.0.0.1:${port}`, process: child, output: '' };
      child.stdout!.on('data', (chunk) => (instance.output += chunk));
      child.stderr!.on('data', (chunk) => (instance.output += chunk));
      child.on('exit', (code, signal) => (instance.exit = `exit ${code ?? signal}`));
      instances.push(instance);
    }
    for (const instance of instances) {
      await until(`${instance.name} to answer`, async () => (await healthOf(instance)) === 200, 60_000).catch((err) => {
        throw new Error(`${err.message}\n${instance.output}`);
      });
    }
    for (const user of [...writers, ...watchers]) {
      const res = await fetch(`${instances[0]!.url}/api/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'password', email: user.email, password: user.password }),
      });
      expect(res.status).toBe(200);
      tokens.set(user.id, ((await res.json()) as { access_token: string }).access_token);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(
      instances.map(
        (instance) =>
          new Promise<void>((done) => {
            if (instance.process.exitCode !== null || instance.process.signalCode !== null) return done();
            instance.process.once('exit', () => done());
            instance.process.kill('SIGTERM');
            setTimeout(() => instance.process.kill('SIGKILL'), 25_000).unref();
          }),
      ),
    );
    door?.shut();
    door?.cut();
    await admin?.end();
    await t?.close();
    await twilio?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('never ends a process, answers 503 while away, serves again within 5 s, and loses or doubles no acknowledged text', async () => {
    const [a, b] = instances as [Instance, Instance];
    const texts: Text[] = [];
    const unavailable: string[] = [];
    let loading = true;
    // Text n comes from writer n (mod WRITERS), alternately to each instance.
    const load = Promise.all(
      Array.from({ length: SENDERS }, async () => {
        while (loading) {
          const n = texts.length;
          const text: Text = { sid: messageSid(1, n), writer: n % WRITERS, body: `Fault ${n}: the kettle sang` };
          texts.push(text);
          const answer = await deliver(n % 2 ? b : a, writers[text.writer]!.phone, text);
          text.answer = answer.status;
          if (answer.status === 503) unavailable.push(answer.body);
          await sleep(50);
        }
      }),
    );

    const figures: Array<{ unavailableMs: number[]; servingMs: number[]; listeningMs: number; realtimeMs: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      // A page open on B through the fault.
      const watcher = tokens.get(watchers[round]!.id)!;
      const page = await openPage(b, watcher);
      await sleep(1_000);

      const down = Date.now();
      door.shut();
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
      door.cut();
      // Both instances tell the proxy they cannot serve.
      const unavailableMs = await Promise.all(
        instances.map(async (instance) => {
          let last = 0;
          await until(`${instance.name} to answer 503`, async () => (last = await healthOf(instance)) === 503, DEADLINE_MS, 20).catch((err) => {
            throw new Error(`${err.message} (last ${last}, ${instance.exit})\n${instance.output.slice(-3000)}`);
          });
          return Date.now() - down;
        }),
      );
      // So does the API, in the error shape every client reads.
      const entries = await fetch(`${a.url}/api/entries`, { headers: { authorization: `Bearer ${tokens.get(writers[0]!.id)}` }, signal: AbortSignal.timeout(DEADLINE_MS) });
      expect(entries.status).toBe(503);
      expect(await entries.json()).toEqual(UNAVAILABLE);
      await sleep(OUTAGE_MS - (Date.now() - down));

      const back = Date.now();
      await door.open();
      const servingMs = await Promise.all(
        instances.map(async (instance) => {
          await until(`${instance.name} to serve again`, async () => (await healthOf(instance)) === 200, DEADLINE_MS, 20);
          return Date.now() - back;
        }),
      );
      // B listens again: the page is told to refetch what it may have missed meanwhile,
      await until(`B to listen again in round ${round + 1}`, () => page.text.includes('data: {"type":"entries.changed"}'), DEADLINE_MS, 20);
      const listeningMs = Date.now() - back;
      // and hears of an entry written on A.
      await until(
        `B's page to hear of an entry written on A in round ${round + 1}`,
        async () => {
          if (page.text.includes('"entryId"')) return true;
          await writeEntry(a, watcher, `Watching, round ${round + 1}`);
          return false;
        },
        DEADLINE_MS,
        200,
      );
      const realtimeMs = Date.now() - back;
      page.close();
      figures.push({ unavailableMs, servingMs, listeningMs, realtimeMs });
      expect(instances.map((i) => i.exit)).toEqual([undefined, undefined]);
    }
    loading = false;
    await load;

    // The processes lived through every fault; every answer came in time, a success or a 503.
    expect(instances.map((i) => i.exit)).toEqual([undefined, undefined]);
    expect(texts.filter((x) => x.answer !== 200 && x.answer !== 503).map((x) => x.answer)).toEqual([]);
    expect(unavailable.length).toBeGreaterThan(0);
    expect(new Set(unavailable)).toEqual(new Set([JSON.stringify(UNAVAILABLE)]));

    // Twilio tries the refused texts again (one may have been recorded before its answer was lost).
    for (const text of texts.filter((x) => x.answer !== 200)) {
      expect((await deliver(a, writers[text.writer]!.phone, text)).status).toBe(200);
    }
    // Every text in its writer's journal exactly once.
    const redelivered = Date.now();
    const countIn = (journal: string, body: string) => journal.split(body).length - 1;
    const countsOf = async (w: number) => {
      const journal = await journalText(b, tokens.get(writers[w]!.id)!);
      return texts.filter((x) => x.writer === w).map((x) => ({ sid: x.sid, times: countIn(journal, x.body) }));
    };
    await until(
      'every text in the journal',
      async () => {
        for (let w = 0; w < WRITERS; w++) if ((await countsOf(w)).some((c) => c.times === 0)) return false;
        return true;
      },
      // A text whose processing the fault cut short waits out its claim's lease.
      200_000,
      2_000,
    ).catch(async (err) => {
      const rows = await admin.query("select status, processed, count(*) from sms_messages where direction = 'inbound' group by 1, 2");
      throw new Error(`${err.message}: ${texts.length} texts, ${JSON.stringify(rows.rows)}`);
    });
    const journalMs = Date.now() - redelivered;
    for (let w = 0; w < WRITERS; w++) expect((await countsOf(w)).filter((c) => c.times !== 1)).toEqual([]);

    // The scheduler and the outbound sender carry on: a HELP texted now is answered.
    const last = watchers[ROUNDS]!;
    expect((await deliver(b, last.phone, { sid: messageSid(2, 0), body: 'HELP' })).status).toBe(200);
    await until('the answer to HELP', () => twilio.sentTo(last.phone).length > 0, 30_000);

    const acknowledged = texts.filter((x) => x.answer === 200).length;
    console.log(
      `PostgreSQL faults: ${ROUNDS} rounds of every connection killed and ${OUTAGE_MS} ms refused, under ${texts.length} texts ` +
        `(${acknowledged} acknowledged at once, ${texts.length - acknowledged} answered 503 and redelivered). ` +
        `/healthz 503 after ${figures.flatMap((f) => f.unavailableMs).join(', ')} ms; serving again after ` +
        `${figures.flatMap((f) => f.servingMs).join(', ')} ms; B listening again after ${figures.map((f) => f.listeningMs).join(', ')} ms, an entry written on A heard on B after ${figures.map((f) => f.realtimeMs).join(', ')} ms; every text in the journal ${journalMs} ms after the load ended`,
    );
  }, 320_000);
});
