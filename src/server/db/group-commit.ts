import type { AppContext } from '../context';
import type { Db } from './database';

interface PendingWrite {
  work: (db: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs `work` after this turn of the event loop and the next, so what the requests read in both
 * turns asked for is done together. Under a flood of webhooks (ten connections) one turn gathered
 * five or six, two mostly ten, and each commit (or append) then writes what they share once for
 * twice as many; a request alone waits microseconds.
 */
export function afterTheNextTurn(work: () => void): void {
  setImmediate(() => setImmediate(work));
}

/**
 * Small writes that arrive in the same turn of the event loop or the next, committed in one SQLite
 * transaction. Each commit takes SQLite's locks and writes its pages to the write-ahead log, with
 * the event loop held; a burst of webhooks each committing its own row spent much of its time there.
 * (better-sqlite3 opens a WAL database with synchronous=NORMAL: a commit survives a killed process
 * without waiting for an fsync, and checkpoints sync; power loss can take the last commits.) Every
 * caller still gets its answer only once its write is committed. Should one write fail, the batch is
 * taken back and each write runs again on its own, so only the failing one fails.
 */
class GroupCommit {
  private pending: PendingWrite[] = [];

  constructor(private readonly db: Db) {}

  run<T>(work: (db: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.pending.length === 1) afterTheNextTurn(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 1) {
      try {
        const results = await this.db.transaction().execute(async (trx) => {
          const out: unknown[] = [];
          for (const write of batch) out.push(await write.work(trx));
          return out;
        });
        batch.forEach((write, i) => write.resolve(results[i]));
        return;
      } catch {
        // Run each on its own below.
      }
    }
    for (const write of batch) {
      try {
        write.resolve(await write.work(this.db));
      } catch (error) {
        write.reject(error);
      }
    }
  }
}

const groups = new WeakMap<Db, GroupCommit>();

/**
 * Runs a small write, on SQLite committed together with the others of this turn (see GroupCommit);
 * on PostgreSQL at once, since its commits wait on the network rather than hold the event loop.
 * `work` must only write through the `db` it is given.
 */
export function commitTogether<T>(ctx: Pick<AppContext, 'db' | 'dbKind'>, work: (db: Db) => Promise<T>): Promise<T> {
  if (ctx.dbKind !== 'sqlite') return work(ctx.db);
  let group = groups.get(ctx.db);
  if (!group) {
    group = new GroupCommit(ctx.db);
    groups.set(ctx.db, group);
  }
  return group.run(work);
}
