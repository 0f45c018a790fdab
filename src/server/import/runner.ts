import type { AppContext } from '../context';
import { claimNextJob, noteStop, releaseJob, type ImportJob } from './jobs-repo';
import { giveUp, runImport, Stopped } from './run-import';
import { ClaimLost } from './write-chunk';

// Imports are jobs in the database: claimed under a lease (claimed_at, renewed by every chunk and a
// heartbeat), so any instance may run them and one that dies has its imports taken over once the
// lease is stale. Each instance runs a bounded number at a time; a new upload kicks the runner, and
// the scheduler's pass (jobs/definitions.ts) picks up what is waiting or abandoned.

/** Imports one instance runs at once; more wait in the queue. */
export const IMPORTS_PER_INSTANCE = 2;
/** A claim not renewed for this long belongs to an instance that died (a running job renews it every 10 s). */
export const STALE_CLAIM_MS = 30_000;
/** Taken over this many times without finishing, an import fails rather than try forever. */
const MAX_TAKEOVERS = 5;

interface Log {
  error(obj: object, msg: string): void;
}

interface Runner {
  running: Map<string, Promise<void>>;
  stopping: boolean;
  claiming: boolean;
  again: boolean;
  log?: Log;
}

const runners = new WeakMap<AppContext, Runner>();

function runnerOf(ctx: AppContext): Runner {
  let runner = runners.get(ctx);
  if (!runner) runners.set(ctx, (runner = { running: new Map(), stopping: false, claiming: false, again: false }));
  return runner;
}

/** Where failures of background imports are logged (never with journal text). */
export function setImportLog(ctx: AppContext, log: Log): void {
  runnerOf(ctx).log = log;
}

function start(ctx: AppContext, runner: Runner, job: ImportJob): void {
  const done = runImport(ctx, job, { stopped: () => runner.stopping })
    .catch(async (error: unknown) => {
      if (error instanceof Stopped) return releaseJob(ctx.db, job, ctx.clock.now().toISOString());
      if (error instanceof ClaimLost) return;
      // Left claimed: taken up again, from its position, once the claim is stale. The reason is kept
      // for the user should the import stop too often (the reader's or the system's words, never the file's).
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 200);
      runner.log?.error({ importId: job.id, err: reason }, 'import stopped; it will be taken up again');
      await noteStop(ctx.db, job, reason);
    })
    .catch(() => undefined)
    .finally(() => {
      runner.running.delete(job.id);
      if (!runner.stopping) kickImports(ctx);
    });
  runner.running.set(job.id, done);
}

/** Claims and starts waiting (or abandoned) imports while this instance has room for them. */
export async function runImports(ctx: AppContext): Promise<void> {
  const runner = runnerOf(ctx);
  if (runner.claiming) {
    runner.again = true;
    return;
  }
  runner.claiming = true;
  try {
    do {
      runner.again = false;
      while (!runner.stopping && runner.running.size < IMPORTS_PER_INSTANCE) {
        const now = ctx.clock.now();
        const claimed = await claimNextJob(ctx.db, now.toISOString(), new Date(now.getTime() - STALE_CLAIM_MS).toISOString(), [...runner.running.keys()]);
        if (!claimed) break;
        if (claimed.takenOver && claimed.job.attempts > MAX_TAKEOVERS) await giveUp(ctx, claimed.job);
        else start(ctx, runner, claimed.job);
      }
    } while (runner.again && !runner.stopping);
  } finally {
    runner.claiming = false;
  }
}

/** Wakes the runner now rather than at the scheduler's next pass. */
export function kickImports(ctx: AppContext): void {
  runImports(ctx).catch((error: unknown) => runnerOf(ctx).log?.error({ err: error instanceof Error ? error.message : String(error) }, 'claiming imports failed'));
}

/** Resolves once the imports running now have stopped (tests wait on it). */
export async function importsSettled(ctx: AppContext): Promise<void> {
  const runner = runnerOf(ctx);
  while (runner.running.size || runner.claiming) await Promise.all([...runner.running.values(), new Promise((r) => setTimeout(r, 5))]);
}

/** Shutting down: running imports stop after their chunk and go back to the queue. */
export async function stopImports(ctx: AppContext): Promise<void> {
  const runner = runnerOf(ctx);
  runner.stopping = true;
  await Promise.all(runner.running.values());
}
