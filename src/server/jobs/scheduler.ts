import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';

/** A named piece of background work the scheduler runs every `everyMs` (and on demand). */
export interface JobDefinition {
  name: string;
  everyMs: number;
  /** `log` is the app's logger: never message bodies, numbers or tokens. */
  run(ctx: AppContext, log?: FastifyBaseLogger): Promise<unknown>;
}

export interface Scheduler {
  start(): void;
  /** Stops the loop and waits for running jobs to finish. */
  stop(): Promise<void>;
  /** Runs a job soon; calls within the debounce window collapse into one run. */
  trigger(name: string): void;
}

const TICK_MS = 250;
// Zero still folds a synchronous burst of kicks into one run, and sends a fresh text at once.
const TRIGGER_DEBOUNCE_MS = 0;

interface JobState {
  job: JobDefinition;
  nextRunAt: number;
  running?: Promise<void>;
  /** Triggered while running: run once more when done. */
  again: boolean;
  triggerTimer?: NodeJS.Timeout;
}

/**
 * A small in-process loop. Jobs claim their work in the database, so one of these per instance is
 * safe. A failing job is logged (never with message bodies) and the loop carries on.
 */
export function createScheduler(
  ctx: AppContext,
  jobs: JobDefinition[],
  log: FastifyBaseLogger,
  /** Told of every finished run: how late it started against its schedule and how long it took. */
  onRun?: (name: string, lagMs: number, durationMs: number) => void,
): Scheduler {
  const states = new Map<string, JobState>(jobs.map((job) => [job.name, { job, nextRunAt: 0, again: false }]));
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;

  const run = (state: JobState): void => {
    if (stopped) return;
    if (state.running) {
      state.again = true;
      return;
    }
    const started = Date.now();
    // A first run or a triggered one is on time; a tick that comes late is not.
    const lagMs = state.nextRunAt > 0 ? Math.max(0, started - state.nextRunAt) : 0;
    state.nextRunAt = started + state.job.everyMs;
    state.running = state.job
      .run(ctx, log)
      .then(
        () => undefined,
        (err: unknown) => log.error({ job: state.job.name, err: err instanceof Error ? err.message : String(err) }, 'job failed'),
      )
      .finally(() => {
        onRun?.(state.job.name, lagMs, Date.now() - started);
        state.running = undefined;
        if (state.again) {
          state.again = false;
          run(state);
        }
      });
  };

  const tick = (): void => {
    const now = Date.now();
    for (const state of states.values()) if (state.nextRunAt <= now) run(state);
    timer = setTimeout(tick, TICK_MS);
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      tick();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      for (const state of states.values()) clearTimeout(state.triggerTimer);
      await Promise.allSettled([...states.values()].map((s) => s.running));
    },
    trigger(name) {
      const state = states.get(name);
      if (!state || stopped || state.triggerTimer) return;
      state.triggerTimer = setTimeout(() => {
        state.triggerTimer = undefined;
        run(state);
      }, TRIGGER_DEBOUNCE_MS);
    },
  };
}
