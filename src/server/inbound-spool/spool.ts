import { closeSync, ftruncateSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import { afterTheNextTurn } from '../db/group-commit';
import { insertReceivedOnce, type ReceivedRow } from '../sms/repo';

/** Texts in the spool go into the database at most this often under a flood (milliseconds); a lone text at once. */
export const MOVE_EVERY_MS = 20;
/** After a failed move (the database locked by another process for long, a full disk), the next try waits this long. */
const RETRY_AFTER_MS = 1_000;
/** At most this many texts go into the database in one transaction. */
const MOVE_MAX = 1_000;
/**
 * While processing has texts enough and a flood keeps arriving, moves wait (see MoveDemand). Once
 * this many texts have been written since the file was last emptied, everything moves and the file
 * is emptied, whatever processing wants: so however long a flood lasts, the file stays under about
 * 17 MB, and memory under about 30 MB (some 640 bytes a text held, its request's logger included).
 */
export const HELD_MAX = 50_000;

/**
 * How many of the spool's texts processing wants in the database now. Moving a text costs the loop
 * about a sixth of what answering its webhook does (44 µs against some 250 in bench/webhook.mjs);
 * under a flood that is time the webhooks need, for texts processing will not reach until it is over.
 */
export interface MoveDemand {
  /** All of them (Infinity) when the loop has time; under a flood only what processing is about to take, maybe none. */
  wanted(): number;
}

/** Every text, at once: no processing to wait for (tests of the spool alone). */
const ALL: MoveDemand = { wanted: () => Number.POSITIVE_INFINITY };

/** A recorded text the database now holds (its id), with the logger of the request that brought it. */
export interface MovedText {
  id: string;
  log: FastifyBaseLogger;
}

interface Appended {
  row: ReceivedRow;
  log: FastifyBaseLogger;
}

interface Waiting extends Appended {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The webhook's durable record on a SQLite file: each text Twilio posts is appended to a file beside
 * the database, and Twilio is answered once it is written; the texts go into the database together a
 * moment later, and are processed from there.
 *
 * Why: on SQLite every statement runs on the event loop. Inserting each text and committing it with
 * the webhooks of the same turn took about half the loop of a flood of webhooks (the insert touches
 * six b-trees, one of them at a random place, and the commit writes each changed page to the
 * write-ahead log with two system calls); one append of a turn's texts takes one system call. Moved in
 * one transaction every MOVE_EVERY_MS, the texts of a flood share their pages and their commit; and
 * while a flood keeps the loop busy and processing has texts enough, they wait in the file (within
 * HELD_MAX) and move as processing needs them, then all together once it is over (MoveDemand).
 *
 * Durable as a commit is: SQLite here runs with synchronous=NORMAL (db/group-commit.ts), so a commit
 * survives a killed process without an fsync, and so does a write to this file. Killed before a move,
 * the file is read again at the next start (replayInboundSpool). Moving is idempotent (a text's
 * MessageSid is unique), so a text moved twice, or delivered twice by Twilio, is recorded once.
 * Each process appends to its own file (`…-spool-PID`): a file is only ever emptied by its writer.
 * Lines are JSON; the message body is sealed already, as in the database.
 */
export class InboundSpool {
  private readonly fd: number;
  /** Handed to append, not yet written. */
  private unwritten: Waiting[] = [];
  /** In the file, not yet in the database, in the order they arrived. */
  private written: Appended[] = [];
  /** The move scheduled next, if one is. */
  private moveTimer: NodeJS.Timeout | undefined;
  private moving: Promise<void> | undefined;
  /** When a move last ran or was put off. */
  private lastMoveAt = Number.NEGATIVE_INFINITY;
  private failedAt = Number.NEGATIVE_INFINITY;
  private closed = false;
  /** Texts written since the file was last emptied: past heldMax, everything moves until it is. */
  private sinceEmptied = 0;

  constructor(
    private readonly ctx: AppContext,
    readonly file: string,
    /** Called with the texts each move put into the database (not those already there). */
    private readonly onMoved: (texts: MovedText[]) => void,
    private readonly demand: MoveDemand = ALL,
    private readonly heldMax = HELD_MAX,
  ) {
    // Append-only, for the server's user only (a mode at creation is trimmed by the umask, never widened).
    this.fd = openSync(file, 'a', 0o600);
    openHere.add(file);
  }

  /**
   * Resolves once the text is in the file, so it survives the process being killed. The texts of one
   * turn of the event loop and the next are written with one system call, so a flood's webhooks are
   * answered together.
   */
  append(row: ReceivedRow, log: FastifyBaseLogger): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The inbound spool is closed'));
    return new Promise((resolve, reject) => {
      this.unwritten.push({ row, log, resolve, reject });
      if (this.unwritten.length === 1) afterTheNextTurn(() => this.write());
    });
  }

  /** Texts written and not yet in the database (for the metrics and tests). */
  get pending(): number {
    return this.written.length + this.unwritten.length;
  }

  /** Moves every text written so far into the database; resolves when none is left (or a move failed). */
  async drain(): Promise<void> {
    while (this.unwritten.length || this.written.length || this.moving) {
      if (this.unwritten.length) this.write();
      if (this.moving) await this.moving;
      else if (this.written.length) {
        this.cancelMove();
        await this.move(Number.POSITIVE_INFINITY);
        // A failed move leaves the texts in the file for the next start.
        if (this.failedAt > this.lastMoveAt) return;
      }
    }
  }

  /** Moves what is written, then closes the file; what could not be moved stays in it for the next start. */
  async close(): Promise<void> {
    await this.drain();
    this.closed = true;
    this.cancelMove();
    closeSync(this.fd);
    openHere.delete(this.file);
    if (!this.written.length) rmSync(this.file, { force: true });
  }

  private write(): void {
    const batch = this.unwritten;
    this.unwritten = [];
    if (!batch.length) return;
    try {
      const data = Buffer.from(batch.map(({ row }) => JSON.stringify(row) + '\n').join(''));
      // writeSync may write less than asked (a signal, a full disk): write the rest.
      for (let offset = 0; offset < data.length; ) offset += writeSync(this.fd, data, offset);
    } catch (error) {
      // Nothing of this batch is acknowledged; a part of a line that reached the file is skipped when read.
      for (const text of batch) text.reject(error);
      return;
    }
    for (const text of batch) {
      this.written.push({ row: text.row, log: text.log });
      this.sinceEmptied += 1;
      text.resolve();
    }
    this.scheduleMove();
  }

  private scheduleMove(): void {
    if (this.moveTimer || this.moving || this.closed || !this.written.length) return;
    // A lone text waits a millisecond at most (a timer's least).
    const wait = Math.max(this.lastMoveAt + MOVE_EVERY_MS, this.failedAt + RETRY_AFTER_MS) - performance.now();
    this.moveTimer = setTimeout(() => {
      this.moveTimer = undefined;
      void this.move(this.sinceEmptied >= this.heldMax ? Number.POSITIVE_INFINITY : this.demand.wanted());
    }, Math.max(0, Math.ceil(wait)));
  }

  private cancelMove(): void {
    clearTimeout(this.moveTimer);
    this.moveTimer = undefined;
  }

  /** Moves up to `wanted` texts (at most MOVE_MAX); none puts the move off for MOVE_EVERY_MS. */
  private move(wanted: number): Promise<void> {
    this.moving ??= this.moveWritten(wanted).finally(() => {
      this.moving = undefined;
      this.scheduleMove();
    });
    return this.moving;
  }

  private async moveWritten(wanted: number): Promise<void> {
    this.lastMoveAt = performance.now();
    if (wanted <= 0) return;
    const batch = this.written.slice(0, Math.min(MOVE_MAX, wanted));
    let inserted: boolean[];
    try {
      inserted = await recordReceived(this.ctx, batch.map(({ row }) => row));
    } catch (error) {
      this.failedAt = performance.now();
      batch[0]!.log.error({ err: error instanceof Error ? error.message : String(error), texts: this.written.length }, 'recorded texts not moved into the database yet; trying again');
      return;
    }
    this.written.splice(0, batch.length);
    // Everything the file holds is in the database: start it again (appends go to its end, now 0).
    // Should that fail, the file keeps texts already recorded; read again at a start, they are skipped.
    if (!this.written.length) {
      try {
        ftruncateSync(this.fd, 0);
        this.sinceEmptied = 0;
      } catch (error) {
        batch[0]!.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'inbound spool not emptied after its texts moved');
      }
    }
    const moved = batch.filter((_, i) => inserted[i]).map(({ row, log }) => ({ id: row.id, log }));
    if (moved.length) this.onMoved(moved);
  }
}

/** Records received texts in one transaction; for each, whether this call recorded it (not already there). */
async function recordReceived(ctx: AppContext, rows: readonly ReceivedRow[]): Promise<boolean[]> {
  return ctx.db.transaction().execute(async (trx) => {
    const inserted: boolean[] = [];
    for (const row of rows) inserted.push(await insertReceivedOnce(trx, row));
    return inserted;
  });
}

const RECEIVED_FIELDS = ['id', 'messageSid', 'from', 'to', 'at', 'kind', 'body'] as const;

/**
 * The texts a spool file holds, in the order they were written. A line that is not a whole text (cut
 * short by a kill while it was written, so never acknowledged) is skipped, and `skipped` told.
 */
export function readSpoolFile(file: string, skipped: () => void = () => {}): ReceivedRow[] {
  const rows: ReceivedRow[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    let row: ReceivedRow | undefined;
    try {
      row = JSON.parse(line) as ReceivedRow;
    } catch {
      // cut short
    }
    if (row && RECEIVED_FIELDS.every((field) => typeof row[field] === 'string')) rows.push(row);
    else skipped();
  }
  return rows;
}

const spools = new WeakMap<AppContext, InboundSpool>();
/** The spool files this process has open (several apps on one database, in tests). */
const openHere = new Set<string>();

/** The app's spool, when its database is a SQLite file (none in memory or on PostgreSQL). */
export function inboundSpoolOf(ctx: AppContext): InboundSpool | undefined {
  return spools.get(ctx);
}

/**
 * The spool file a process appends to, beside the database file; a second app of the process on the
 * same database (tests) gets `.1`, and so on.
 */
export function spoolFileOf(databaseFile: string, pid = process.pid, nth = 0): string {
  return `${databaseFile}-spool-${pid}${nth ? `.${nth}` : ''}`;
}

/** Opens this process's spool for the app (see InboundSpool). */
export function openInboundSpool(ctx: AppContext, databaseFile: string, onMoved: (texts: MovedText[]) => void, demand: MoveDemand): InboundSpool {
  let nth = 0;
  while (openHere.has(spoolFileOf(databaseFile, process.pid, nth))) nth++;
  const spool = new InboundSpool(ctx, spoolFileOf(databaseFile, process.pid, nth), onMoved, demand);
  spools.set(ctx, spool);
  return spool;
}

/**
 * Whether a process with this id is running (another server on the same database file). This
 * process's own id in a file name that it has not opened is a process before it (a container
 * restarted gets the same id).
 */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * At start: puts the texts a killed server had written to its spool, and not yet into the database,
 * into the database (those already there are skipped), then removes its file. The files of servers
 * still running are theirs. A line cut short by the kill was never acknowledged, and is skipped.
 * Returns the ids of the texts it put into the database, to be processed.
 */
export async function replayInboundSpools(ctx: AppContext, databaseFile: string, log: FastifyBaseLogger): Promise<string[]> {
  const dir = dirname(databaseFile);
  const prefix = `${basename(databaseFile)}-spool-`;
  const moved: string[] = [];
  for (const name of readdirSync(dir)) {
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    const file = join(dir, name);
    if (!name.startsWith(prefix) || !Number.isInteger(pid) || isRunning(pid) || openHere.has(file)) continue;
    const rows = readSpoolFile(file, () => log.warn({ file: name }, 'skipped a partly written line of an inbound spool (never acknowledged)'));
    for (let from = 0; from < rows.length; from += MOVE_MAX) {
      const chunk = rows.slice(from, from + MOVE_MAX);
      const inserted = await recordReceived(ctx, chunk);
      chunk.forEach((row, i) => inserted[i] && moved.push(row.id));
    }
    rmSync(file, { force: true });
    if (rows.length) log.info({ texts: rows.length, recorded: moved.length }, 'inbound texts of a stopped server recorded from its spool');
  }
  return moved;
}
