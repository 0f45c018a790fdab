import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom as seeded } from '../demo/random';
import { freePort, sleep, until } from '../test/processes';
import { createEntrySchema } from '../../shared/journal';
import { hashPassword } from '../auth/passwords';
import { createAccount } from '../auth/sign-up';
import { createEntry } from '../journal/service';
import {
  buildSmsTestApp,
  serveEnv,
  JOURNAL_NUMBER,
  PUBLIC_URL,
  startFakeTwilio,
  TWILIO_SID,
  twilioSignature,
  type FakeTwilio,
  type SmsTestApp,
} from '../test/sms';
import { smsTexts } from '../sms/texts';

/**
 * Signed inbound texts under load to a real `jotline serve` process, killed with SIGKILL at seeded
 * random moments and restarted on the same database. Short in `npm test`; CRASH_TRIALS=50 (and
 * CRASH_TEXTS, CRASH_SEED) for the long run. On SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
const TRIALS = Number(process.env.CRASH_TRIALS ?? 5);
const TEXTS_PER_TRIAL = Number(process.env.CRASH_TEXTS ?? 80);
const SEED = Number(process.env.CRASH_SEED ?? 20261123);
const USERS = 24;
/** These users have nine earlier journal days: their first text today is a ten-day milestone. */
const MILESTONE_USERS = 8;
const CONCURRENCY = 12;
/** The behaviour deadline: a restarted instance has processed every acknowledged text within this. */
const RECOVERY_DEADLINE_MS = 15_000;
const WEBHOOK = '/webhooks/twilio/sms';

interface Text {
  sid: string;
  user: number;
  body: string;
}

interface Server {
  process: ChildProcess;
  output: string;
  exited: Promise<void>;
}

interface TrialFigures {
  /** Killed a second time while it recovered, a few hundred ms after it answered again. */
  killedAgain: boolean;
  acknowledged: number;
  unacknowledged: number;
  leftUnprocessed: number;
  leftClaimed: number;
  readyMs: number;
  recoveryMs: number;
}

describe('a server killed with SIGKILL under a burst of texts', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  let dataDir: string;
  let port: number;
  let server: Server | undefined;
  const users: Array<{ id: string; phone: string }> = [];

  const env = () => ({
    ...serveEnv(t, twilio),
    PORT: String(port),
    DATA_DIR: join(dataDir, 'instance'),
  });

  /** Starts `jotline serve` (the same instance, data folder and port each time) and waits until it answers. */
  const start = async (): Promise<{ server: Server; readyMs: number }> => {
    const started = Date.now();
    const child = spawn(process.execPath, [resolve('bin/jotline.mjs'), 'serve'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    const s: Server = { process: child, output: '', exited: new Promise((done) => child.once('exit', () => done())) };
    child.stdout!.on('data', (chunk) => (s.output += chunk));
    child.stderr!.on('data', (chunk) => (s.output += chunk));
    await until('the server to answer', () => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false), 60_000, 50).catch((err: Error) => {
      throw new Error(`${err.message}\n${s.output}`);
    });
    return { server: s, readyMs: Date.now() - started };
  };

  const deliver = async (text: Text): Promise<boolean> => {
    const params = { MessageSid: text.sid, AccountSid: TWILIO_SID, From: users[text.user]!.phone, To: JOURNAL_NUMBER, Body: text.body, NumMedia: '0' };
    try {
      const res = await fetch(`http://127.0.0.1:${port}${WEBHOOK}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(`${PUBLIC_URL}${WEBHOOK}`, params) },
        body: new URLSearchParams(params).toString(),
      });
      await res.arrayBuffer();
      return res.status === 200;
    } catch {
      return false; // the connection died with the server: not acknowledged
    }
  };

  const rowsOf = (sids: string[]) =>
    sids.length
      ? t.ctx.db.selectFrom('sms_messages').select(['provider_message_id', 'processed', 'claimed_at']).where('direction', '=', 'inbound').where('provider_message_id', 'in', sids).execute()
      : Promise.resolve([]);
  const allProcessed = async (sids: string[]) => {
    const rows = await rowsOf(sids);
    return rows.length === sids.length && rows.every((r) => r.processed === 1);
  };

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    // Creates the database and schema, and reads the journals afterwards (its own jobs are off).
    t = await buildSmsTestApp({ twilio });
    dataDir = mkdtempSync(join(tmpdir(), 'jotline-crash-'));
    port = await freePort();
    const passwordHash = await hashPassword('Journal123');
    const now = t.clock.now();
    for (let i = 0; i < USERS; i++) {
      const phone = `+1512${String(3_000_000 + i).padStart(7, '0')}`;
      const id = await createAccount(t.ctx.db, t.clock, { email: `crash-${i}@example.com`, phone, passwordHash, timezone: 'UTC', phoneVerified: true });
      users.push({ id, phone });
      if (i < MILESTONE_USERS) {
        // Nine earlier days, none next to another or to today: ten journal days with today's first text.
        for (let n = 1; n <= 9; n++) {
          const entryDate = new Date(now.getTime() - 2 * n * 86_400_000).toISOString().slice(0, 10);
          await createEntry(t.ctx, id, createEntrySchema.parse({ content: `Earlier day ${n}`, entry_date: entryDate }));
        }
      }
    }
    server = (await start()).server;
  }, 120_000);

  afterAll(async () => {
    if (server && server.process.exitCode === null && server.process.signalCode === null) {
      server.process.kill('SIGTERM');
      setTimeout(() => server?.process.kill('SIGKILL'), 25_000).unref();
      await server.exited;
    }
    await t?.close();
    await twilio?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it(`puts every acknowledged text in exactly one entry over ${TRIALS} trials of SIGKILL and restart, each recovered within 15 s of the restart`, async () => {
    const random = seeded(SEED);
    const figures: TrialFigures[] = [];
    const acknowledged = new Set<string>();
    const everyText: Text[] = [];
    const started = Date.now();

    for (let trial = 0; trial < TRIALS; trial++) {
      // Every user texts in turn, in a seeded order, several times; every tenth text is HELP (a reply).
      const texts: Text[] = Array.from({ length: TEXTS_PER_TRIAL }, (_, n) => {
        const sid = `SM${String(trial).padStart(6, '0')}${String(n).padStart(6, '0')}${Math.floor(random() * 2 ** 48).toString(16).padStart(20, '0')}`;
        return { sid, user: n % USERS, body: n % 10 === 9 ? 'HELP' : `Crash note ${sid}: the kettle, the rain, the bus.` };
      });
      for (let i = texts.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [texts[i], texts[j]] = [texts[j]!, texts[i]!];
      }
      everyText.push(...texts);

      // The kill comes after a random share of the burst has been acknowledged, a few ms later still.
      const killAfter = 1 + Math.floor(random() * (TEXTS_PER_TRIAL - 2));
      const killDelayMs = Math.floor(random() * 15);
      const killAgainAfterMs = random() < 0.3 ? Math.floor(random() * 500) : null;
      const victim = server!;
      const acked: string[] = [];
      const unacked: Text[] = [];
      let killed = false;
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < texts.length && !killed) {
            const text = texts[next++]!;
            if (await deliver(text)) {
              acked.push(text.sid);
              if (acked.length === killAfter) {
                setTimeout(() => {
                  killed = true;
                  victim.process.kill('SIGKILL');
                }, killDelayMs);
              }
            } else unacked.push(text);
          }
        }),
      );
      await victim.exited;
      expect(victim.process.signalCode).toBe('SIGKILL');
      unacked.push(...texts.slice(next)); // never sent before the kill: Twilio would deliver them later
      for (const sid of acked) acknowledged.add(sid);

      // What the killed instance left behind: every acknowledged text is in the database.
      const rows = await rowsOf(acked);
      const inDatabase = new Set(rows.map((r) => r.provider_message_id));
      expect(acked.filter((sid) => !inDatabase.has(sid)), 'an acknowledged text is recorded').toEqual([]);
      const left = rows.filter((r) => r.processed === 0);

      // The restart: every acknowledged text processed within the deadline.
      let restartedAt = Date.now();
      let restarted = await start();
      server = restarted.server;
      if (killAgainAfterMs !== null) {
        // Killed again while it recovers: the next start takes over what this one was doing.
        await sleep(killAgainAfterMs);
        server.process.kill('SIGKILL');
        await server.exited;
        restartedAt = Date.now();
        restarted = await start();
        server = restarted.server;
      }
      await until('every acknowledged text processed', () => allProcessed(acked), 60_000, 50);
      const recoveryMs = Date.now() - restartedAt;
      figures.push({
        killedAgain: killAgainAfterMs !== null,
        acknowledged: acked.length,
        unacknowledged: unacked.length,
        leftUnprocessed: left.length,
        leftClaimed: left.filter((r) => r.claimed_at !== null).length,
        readyMs: restarted.readyMs,
        recoveryMs,
      });

      // Twilio retries what was not acknowledged (some of it recorded before the kill).
      for (const text of unacked) expect(await deliver(text), text.sid).toBe(true);
      await until('the redelivered texts processed', () => allProcessed(unacked.map((x) => x.sid)), 30_000, 50);
    }

    // Every text recorded once and processed; the journal texts applied once each.
    const isHelp = (text: Text) => text.body === 'HELP';
    const journalTexts = everyText.filter((text) => !isHelp(text));
    const inbound = await t.ctx.db.selectFrom('sms_messages').select(['id', 'provider_message_id', 'processed', 'kind', 'entry_id', 'user_id']).where('direction', '=', 'inbound').execute();
    expect(inbound).toHaveLength(everyText.length);
    const kindOf = new Map(inbound.map((r) => [r.provider_message_id!, r.processed === 1 ? r.kind : 'unprocessed']));
    expect(everyText.filter((text) => kindOf.get(text.sid) !== (isHelp(text) ? 'help' : 'journal')).map((text) => text.sid)).toEqual([]);
    expect(inbound.every((r) => r.kind !== 'journal' || r.entry_id)).toBe(true);
    const applied = await t.ctx.db.selectFrom('journal_sms_applied').select(['message_id', 'entry_id']).execute();
    expect(applied).toHaveLength(journalTexts.length);
    const entryOfSid = new Map(inbound.map((r) => [r.provider_message_id!, r.entry_id!]));

    const found = new Map<string, string[]>(); // sid → the entries holding it, once per occurrence
    for (const user of users) {
      for (const entry of await t.ctx.journalCache.entries(user.id)) {
        for (const [sid] of entry.content.matchAll(/SM[0-9a-f]{32}/g)) found.set(sid, [...(found.get(sid) ?? []), entry.id]);
      }
    }
    // Every journal text, decrypted from the journals: in exactly one entry, exactly once.
    const misplaced = journalTexts.filter((text) => {
      const holding = found.get(text.sid) ?? [];
      return holding.length !== 1 || holding[0] !== entryOfSid.get(text.sid);
    });
    expect(misplaced.map((x) => `${x.sid} in ${(found.get(x.sid) ?? []).length} places`)).toEqual([]);
    expect(journalTexts.filter((text) => acknowledged.has(text.sid)).every((text) => found.get(text.sid)?.length === 1)).toBe(true);

    // Automated texts keep their dedupe keys: one row a key, one ten-day milestone each, sent at most once.
    const outbound = await t.ctx.db.selectFrom('sms_messages').select(['dedupe_key', 'kind', 'user_id', 'to_number']).where('direction', '=', 'outbound').execute();
    const tenDays = smsTexts.milestone({ kind: 'days', count: 10 });
    const keys = outbound.map((r) => r.dedupe_key).filter((k): k is string => k !== null);
    expect(new Set(keys).size).toBe(keys.length);
    // One reply for each HELP, however often it was processed.
    const replies = new Set(outbound.filter((r) => r.kind === 'help').map((r) => r.dedupe_key));
    expect(everyText.filter(isHelp).filter((text) => !replies.has(`reply:${text.sid}`))).toEqual([]);
    expect(replies.size).toBe(everyText.filter(isHelp).length);
    for (const [i, user] of users.entries()) {
      const milestones = outbound.filter((r) => r.user_id === user.id && r.kind === 'milestone');
      expect(milestones.map((r) => r.dedupe_key)).toEqual(i < MILESTONE_USERS ? [`milestone:${user.id}:days:10`] : []);
      expect(twilio.sentTo(user.phone).filter((m) => m.body === tenDays).length).toBeLessThanOrEqual(1);
    }
    const milestonesSent = twilio.sent.filter((m) => m.body === tenDays).length;

    const total = figures.reduce((sum, f) => ({ acked: sum.acked + f.acknowledged, left: sum.left + f.leftUnprocessed, claimed: sum.claimed + f.leftClaimed }), { acked: 0, left: 0, claimed: 0 });
    const recoveries = figures.map((f) => f.recoveryMs);
    console.log(
      [
        `crash test (${t.ctx.dbKind}, seed ${SEED}): ${TRIALS} trials, ${TRIALS + figures.filter((f) => f.killedAgain).length} SIGKILLs, ` +
          `${everyText.length} texts (${journalTexts.length} journal, the rest HELP), ${total.acked} acknowledged before a kill, ` +
          `${total.left} of them left unprocessed by the killed server (${total.claimed} claimed mid-processing); every journal text in exactly one entry, one reply a HELP; ` +
          `recovery after restart ${Math.min(...recoveries)}–${Math.max(...recoveries)} ms (deadline ${RECOVERY_DEADLINE_MS} ms); ` +
          `${MILESTONE_USERS} milestone texts queued once each (${milestonesSent} sent so far, none twice); ${Math.round((Date.now() - started) / 1000)} s in all`,
        ...figures.map(
          (f, n) =>
            `  trial ${n + 1}${f.killedAgain ? ' (killed again while recovering)' : ''}: ${f.acknowledged} acknowledged, ${f.unacknowledged} redelivered, ${f.leftUnprocessed} left unprocessed (${f.leftClaimed} claimed), ready in ${f.readyMs} ms, all processed ${f.recoveryMs} ms after the restart`,
        ),
      ].join('\n'),
    );
    for (const f of figures) expect(f.recoveryMs).toBeLessThan(RECOVERY_DEADLINE_MS);
    // The trials must have left something to recover, or they would prove nothing.
    expect(total.left).toBeGreaterThan(0);
  }, 600_000);
});
