import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { newTimeOrderedId } from '../ids';
import { inboundProcessingSettled } from '../sms/inbound';
import type { ReceivedRow } from '../sms/repo';
import { buildSmsTestApp, JOURNAL_NUMBER, journalOf, newMessageSid, postTwilioWebhook, refuseInboundTexts, TWILIO_SID, type SmsTestApp } from '../sms/test-support';
import { EMPTY_TWIML } from '../sms/routes';
import { buildUser } from '../test/factories';
import { InboundSpool, inboundSpoolOf, MOVE_EVERY_MS, replayInboundSpools, spoolFileOf, type MoveDemand, type MovedText } from './spool';

describe('the inbound spool', () => {
  let t: SmsTestApp;
  const spools: InboundSpool[] = [];

  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterEach(async () => {
    for (const spool of spools.splice(0)) await spool.close().catch(() => {});
  });
  afterAll(async () => {
    await t.close();
  });

  const rowOf = (body: string, messageSid = newMessageSid()): ReceivedRow => {
    const at = t.clock.now();
    return { id: newTimeOrderedId(at), messageSid, from: '+15125550142', to: JOURNAL_NUMBER, at: at.toISOString(), kind: 'inbound', body: t.ctx.cipher.encrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, body), media: null };
  };
  const rowsFor = (sids: string[]) => t.ctx.db.selectFrom('sms_messages').select(['id', 'provider_message_id', 'body']).where('provider_message_id', 'in', sids).execute();
  /** A spool of its own on a file in the test's data folder (on SQLite and PostgreSQL alike). */
  const openSpool = (name: string, demand?: MoveDemand, heldMax?: number) => {
    const moved: MovedText[] = [];
    const spool = new InboundSpool(t.ctx, join(t.dataDir, name), (texts) => moved.push(...texts), demand, heldMax);
    spools.push(spool);
    return { spool, moved };
  };
  const until = async (done: () => boolean, ms = 2_000) => {
    const deadline = Date.now() + ms;
    while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

  it('holds an appended text in its file once append resolves, then moves it into the database and empties the file', async () => {
    const { spool, moved } = openSpool('append.spool');
    const row = rowOf('Rain on the tin roof.');
    await spool.append(row, t.app.log);

    // Written (so acknowledged), not moved yet: the move waits for a later turn of the loop.
    expect(linesOf(spool.file).map((line) => JSON.parse(line))).toEqual([row]);
    expect(await rowsFor([row.messageSid])).toEqual([]);
    expect(spool.pending).toBe(1);

    await spool.drain();
    expect(await rowsFor([row.messageSid])).toEqual([{ id: row.id, provider_message_id: row.messageSid, body: row.body }]);
    expect(readFileSync(spool.file, 'utf8')).toBe('');
    expect(moved.map((text) => text.id)).toEqual([row.id]);
    expect(spool.pending).toBe(0);
  });

  it('writes the texts of one turn with one append and moves them together; a MessageSid already recorded is not moved again', async () => {
    const { spool, moved } = openSpool('together.spool');
    const first = rowOf('First.');
    await spool.append(first, t.app.log);
    await spool.drain();

    const again = rowOf('First, delivered again by Twilio.', first.messageSid);
    const others = [rowOf('Second.'), rowOf('Third.')];
    const twice = rowOf('Fourth, posted twice at once.');
    const twin = { ...rowOf('Fourth, posted twice at once.', twice.messageSid) };
    await Promise.all([again, ...others, twice, twin].map((row) => spool.append(row, t.app.log)));
    expect(linesOf(spool.file)).toHaveLength(5);
    await spool.drain();

    const rows = await rowsFor([first.messageSid, ...others.map((row) => row.messageSid), twice.messageSid]);
    expect(rows.map((row) => row.id).sort()).toEqual([first.id, ...others.map((row) => row.id), twice.id].sort());
    // Only what each move put into the database goes on to be processed.
    expect(moved.map((text) => text.id)).toEqual([first.id, ...others.map((row) => row.id), twice.id]);
  });

  it('under a stream of texts moves them at most every MOVE_EVERY_MS, many a transaction', async () => {
    const { spool, moved } = openSpool('stream.spool');
    const moves: number[] = [];
    const original = t.ctx.db.transaction.bind(t.ctx.db);
    t.ctx.db.transaction = () => {
      moves.push(performance.now());
      return original();
    };
    try {
      const started = performance.now();
      const rows: ReceivedRow[] = [];
      while (performance.now() - started < 5 * MOVE_EVERY_MS) {
        const row = rowOf(`Stream ${rows.length}.`);
        rows.push(row);
        await spool.append(row, t.app.log);
      }
      await spool.drain();
      expect(moved).toHaveLength(rows.length);
      // A lone first text moves at once; after that, moves keep their distance.
      const gaps = moves.slice(1).map((at, i) => at - moves[i]!);
      expect(Math.min(...gaps.slice(0, -1))).toBeGreaterThanOrEqual(MOVE_EVERY_MS - 1);
      expect(moves.length).toBeLessThan(rows.length / 2);
    } finally {
      t.ctx.db.transaction = original;
    }
  });

  it('under a flood moves only what processing asks for, holds the rest in its file, and moves them all once asked', async () => {
    // Processing's demand as the inbound queue states it: none while it has texts enough.
    let wanted = 0;
    const { spool, moved } = openSpool('flood.spool', { wanted: () => wanted });
    const rows = Array.from({ length: 30 }, (_, i) => rowOf(`Flood ${i}.`));
    await Promise.all(rows.map((row) => spool.append(row, t.app.log)));
    await new Promise((resolve) => setTimeout(resolve, 4 * MOVE_EVERY_MS));
    expect(moved).toEqual([]);
    expect(await rowsFor(rows.map((row) => row.messageSid))).toEqual([]);
    expect(linesOf(spool.file)).toHaveLength(30);
    expect(spool.pending).toBe(30);

    // Processing runs short: the oldest five move, the rest stay where they are.
    wanted = 5;
    await until(() => moved.length > 0);
    wanted = 0;
    await new Promise((resolve) => setTimeout(resolve, 3 * MOVE_EVERY_MS));
    expect(moved.map((text) => text.id)).toEqual(rows.slice(0, 5).map((row) => row.id));
    expect(spool.pending).toBe(25);

    // The flood is over: everything moves, in order, and the file is emptied.
    wanted = Number.POSITIVE_INFINITY;
    await until(() => moved.length === 30);
    expect(moved.map((text) => text.id)).toEqual(rows.map((row) => row.id));
    expect(await rowsFor(rows.map((row) => row.messageSid))).toHaveLength(30);
    expect(readFileSync(spool.file, 'utf8')).toBe('');
  });

  it('however long a flood lasts, empties its file once it has taken its limit, then holds texts again', async () => {
    const { spool, moved } = openSpool('held.spool', { wanted: () => 0 }, 10);
    const first = Array.from({ length: 12 }, (_, i) => rowOf(`Long flood ${i}.`));
    await Promise.all(first.map((row) => spool.append(row, t.app.log)));
    await until(() => moved.length === 12);
    expect(moved.map((text) => text.id)).toEqual(first.map((row) => row.id));
    expect(await rowsFor(first.map((row) => row.messageSid))).toHaveLength(12);
    expect(readFileSync(spool.file, 'utf8')).toBe('');

    const next = Array.from({ length: 5 }, (_, i) => rowOf(`Still flooding ${i}.`));
    await Promise.all(next.map((row) => spool.append(row, t.app.log)));
    await new Promise((resolve) => setTimeout(resolve, 3 * MOVE_EVERY_MS));
    expect(moved).toHaveLength(12);
    expect(linesOf(spool.file)).toHaveLength(5);
    // Closing moves what it holds, whatever processing wants.
    await spool.close();
    expect(await rowsFor(next.map((row) => row.messageSid))).toHaveLength(5);
  });

  it('keeps the texts (in its file and for the next try) while the database refuses them, and moves them once it takes them', async () => {
    const { spool, moved } = openSpool('refused.spool');
    const accept = await refuseInboundTexts(t.ctx);
    const row = rowOf('Written while the database said no.');
    try {
      await spool.append(row, t.app.log);
      await spool.drain();
      expect(await rowsFor([row.messageSid])).toEqual([]);
      expect(linesOf(spool.file).map((line) => JSON.parse(line).messageSid)).toEqual([row.messageSid]);
      expect(spool.pending).toBe(1);
    } finally {
      await accept();
    }
    // The next try comes by itself, about a second later.
    const deadline = Date.now() + 5_000;
    while (moved.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(moved.map((text) => text.id)).toEqual([row.id]);
    expect(readFileSync(spool.file, 'utf8')).toBe('');
  });

  it('closes by moving what it holds and removing its file', async () => {
    const { spool } = openSpool('closing.spool');
    const row = rowOf('Just before the server stopped.');
    await spool.append(row, t.app.log);
    await spool.close();
    expect(await rowsFor([row.messageSid])).toHaveLength(1);
    expect(existsSync(spool.file)).toBe(false);
    await expect(spool.append(rowOf('Too late.'), t.app.log)).rejects.toThrow('closed');
  });

  it("at start records what a killed server's spool holds, skips lines that are not whole texts, and leaves a running server's spool alone", async () => {
    const databaseFile = join(t.dataDir, 'replay.db');
    // A process that has exited: its id is free (a killed server's).
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      const left = [rowOf('Left behind one.'), rowOf('Left behind two.')];
      const recorded = rowOf('Already moved before the kill.');
      await t.ctx.db.insertInto('sms_messages').values({ id: recorded.id, direction: 'inbound', provider_message_id: recorded.messageSid, from_number: recorded.from, to_number: recorded.to, created_at: recorded.at, updated_at: recorded.at, kind: 'inbound', status: 'received', body: recorded.body }).execute();
      const deadFile = spoolFileOf(databaseFile, dead);
      // A line that parses but is not a whole text is skipped too (the bytes of a torn write can end on a brace).
      const notAText = JSON.stringify({ id: rowOf('Torn.').id }) + '\n';
      writeFileSync(deadFile, [...left, recorded].map((row) => JSON.stringify(row) + '\n').join('') + notAText + JSON.stringify(rowOf('Never acknowledged.')).slice(0, 40));
      const theirs = rowOf('Still being written by a running server.');
      const aliveFile = spoolFileOf(databaseFile, alive.pid!);
      writeFileSync(aliveFile, JSON.stringify(theirs) + '\n');

      const ids = await replayInboundSpools(t.ctx, databaseFile, t.app.log);
      expect(ids).toEqual(left.map((row) => row.id));
      expect((await rowsFor([...left, recorded].map((row) => row.messageSid))).map((row) => row.id).sort()).toEqual([...left, recorded].map((row) => row.id).sort());
      expect(existsSync(deadFile)).toBe(false);
      expect(await rowsFor([theirs.messageSid])).toEqual([]);
      expect(existsSync(aliveFile)).toBe(true);
    } finally {
      alive.kill();
    }
  });

  it("gives a second app of the process on the same database a spool of its own, and leaves the first one's alone", async () => {
    const second = await buildSmsTestApp({ sameDatabaseAs: t });
    try {
      const [mine, theirs] = [inboundSpoolOf(t.ctx), inboundSpoolOf(second.ctx)];
      if (t.ctx.dbKind !== 'sqlite') {
        expect([mine, theirs]).toEqual([undefined, undefined]);
        return;
      }
      expect(theirs!.file).toBe(`${mine!.file}.1`);
      expect(existsSync(mine!.file)).toBe(true);
      const row = rowOf('Texted while a second app started.');
      await mine!.append(row, t.app.log);
      expect(linesOf(mine!.file)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('is what the webhook records into on a SQLite file (on PostgreSQL it inserts at once): the text is journaled once, however often Twilio posts it', async () => {
    if (t.ctx.dbKind === 'sqlite') expect(inboundSpoolOf(t.ctx)?.file).toMatch(new RegExp(`\\.db-spool-${process.pid}$`));
    else expect(inboundSpoolOf(t.ctx)).toBeUndefined();
    const user = await buildUser(t);
    const params = { MessageSid: newMessageSid(), AccountSid: TWILIO_SID, From: user.phone, To: JOURNAL_NUMBER, Body: 'Swam in the lake before work.', NumMedia: '0' };
    const answers = await Promise.all([params, params].map((p) => postTwilioWebhook(t, '/webhooks/twilio/sms', p)));
    expect(answers.map((res) => [res.statusCode, res.body])).toEqual([[200, EMPTY_TWIML], [200, EMPTY_TWIML]]);
    await inboundProcessingSettled(t.ctx);
    expect(await rowsFor([params.MessageSid])).toHaveLength(1);
    const content = (await journalOf(t, user.id)).map((entry) => entry.content).join('\n');
    expect(content.split(params.Body)).toHaveLength(2);
  });
});
