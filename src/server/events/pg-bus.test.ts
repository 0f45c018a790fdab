import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSmsTestApp, textJournal, type SmsTestApp } from '../test/sms';
import { buildUser, signIn, type TestUser } from '../test/factories';
import { createContext } from '../create-context';
import { EVENTS_CHANNEL, LISTENER_APPLICATION_NAME, noticePayload } from './pg-bus';

describe('realtime notices', () => {
  it('fit within NOTIFY’s 8000 bytes, keeping at least the event type', () => {
    const small = noticePayload({ i: 'instance', u: 'user', e: { type: 'entries.changed', entryId: 'e1' } });
    expect(JSON.parse(small)).toEqual({ i: 'instance', u: 'user', e: { type: 'entries.changed', entryId: 'e1' } });
    const huge = noticePayload({ i: 'instance', u: 'user', e: { type: 'entries.changed', entryId: 'x'.repeat(10_000) } });
    expect(Buffer.byteLength(huge)).toBeLessThan(8000);
    expect(JSON.parse(huge)).toEqual({ i: 'instance', u: 'user', e: { type: 'entries.changed' } });
  });
});

/** Reads a server-sent-events response until `done` says the text so far is enough, or the time runs out. */
async function readStreamUntil(reader: ReadableStreamDefaultReader<Uint8Array>, done: (text: string) => boolean, timeoutMs: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + timeoutMs;
  while (!done(text)) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const chunk = await Promise.race([reader.read(), new Promise<null>((resolve) => setTimeout(() => resolve(null), left))]);
    if (!chunk || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text;
}

// Two app instances on one PostgreSQL database: the LISTEN/NOTIFY bus only exists there.
describe.runIf(process.env.TEST_DATABASE_URL)('realtime across instances, on PostgreSQL', () => {
  let a: SmsTestApp;
  let b: SmsTestApp;
  let baseB: string;
  let watcher: pg.Client;
  const notices: string[] = [];

  beforeAll(async () => {
    a = await buildSmsTestApp();
    b = await buildSmsTestApp({ sameDatabaseAs: a });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    baseB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
    // Everything that crosses between instances, as PostgreSQL carries it.
    watcher = new pg.Client({ connectionString: a.ctx.config.databaseUrl });
    await watcher.connect();
    watcher.on('notification', (n) => notices.push(n.payload ?? ''));
    await watcher.query(`LISTEN ${EVENTS_CHANNEL}`);
  });
  afterAll(async () => {
    await watcher?.end();
    await b?.close();
    await a?.close();
  });

  async function openStreamOnB(user: TestUser) {
    const token = await signIn(b, user);
    const abort = new AbortController();
    const ticket = await b.app.inject({ method: 'POST', url: '/api/events/ticket', headers: { authorization: `Bearer ${token}` } });
    const res = await fetch(`${baseB}/api/events?ticket=${JSON.parse(ticket.body).ticket}`, { signal: abort.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect(await readStreamUntil(reader, (text) => text.includes(': connected'), 2_000)).toContain(': connected');
    return { reader, token, close: () => abort.abort() };
  }

  const entryIdOf = async (user: TestUser) =>
    (await a.ctx.db.selectFrom('journal_entries').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow()).id;

  it('shows a text that arrived on instance A on a page open on instance B within a second, carrying ids only', async () => {
    const user = await buildUser(a);
    const stream = await openStreamOnB(user);
    try {
      const started = Date.now();
      await textJournal(a, user.phone, 'a private thought, sent to A');
      const entryId = await entryIdOf(user);
      const text = await readStreamUntil(stream.reader, (t) => t.includes(entryId), 1_000);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(text).toContain(`event: entries.changed\ndata: ${JSON.stringify({ type: 'entries.changed', entryId })}\n\n`);

      await vi.waitFor(() => expect(notices.some((n) => n.includes(entryId))).toBe(true));
      for (const notice of notices) {
        expect(notice).not.toContain('private thought');
        expect(notice).not.toContain(user.phone);
        expect(Buffer.byteLength(notice)).toBeLessThan(8000);
      }
    } finally {
      stream.close();
    }
  });

  it("tells a page open on instance B of what a command-line context changed (its context's own bus)", async () => {
    const user = await buildUser(a);
    const stream = await openStreamOnB(user);
    // A context as each CLI command builds it: no app, no scheduler, the same database.
    const cli = await createContext(a.ctx.config);
    try {
      cli.ctx.events.publish(user.id, { type: 'entries.changed', entryId: 'from-the-cli' });
      expect(await readStreamUntil(stream.reader, (t) => t.includes('from-the-cli'), 2_000)).toContain('from-the-cli');
    } finally {
      stream.close();
      await cli.close();
    }
  });

  it('ends a stream open on instance B when the user signs out everywhere on instance A', async () => {
    const user = await buildUser(a);
    const stream = await openStreamOnB(user);
    try {
      const signedOut = await a.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `Bearer ${stream.token}` }, payload: { scope: 'global' } });
      expect(signedOut.statusCode).toBe(204);
      const ended = await Promise.race([
        (async () => {
          for (;;) if ((await stream.reader.read()).done) return true;
        })(),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 2_000)),
      ]);
      expect(ended).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('keeps its subscribers when PostgreSQL drops the listening connection, and hears events again', async () => {
    const user = await buildUser(a);
    const stream = await openStreamOnB(user);
    try {
      const listeners = () =>
        sql<{ pid: number }>`select pid from pg_stat_activity where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`
          .execute(a.ctx.db)
          .then((r) => r.rows.map((row) => Number(row.pid)));
      const before = await listeners();
      expect(before).toHaveLength(2); // one per instance
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where pid in (${sql.join(before)})`.execute(a.ctx.db);

      // Both instances listen again on new connections.
      await vi.waitFor(
        async () => {
          const after = await listeners();
          expect(after).toHaveLength(2);
          expect(after.filter((pid) => before.includes(pid))).toEqual([]);
        },
        { timeout: 5_000, interval: 50 },
      );
      // Anything missed while away is covered by a refetch signal to the open page.
      expect(await readStreamUntil(stream.reader, (t) => t.includes('event: entries.changed'), 2_000)).toContain('data: {"type":"entries.changed"}');

      await textJournal(a, user.phone, 'after the reconnect');
      const entryId = await entryIdOf(user);
      expect(await readStreamUntil(stream.reader, (t) => t.includes(entryId), 1_000)).toContain(entryId);
    } finally {
      stream.close();
    }
  });
});
