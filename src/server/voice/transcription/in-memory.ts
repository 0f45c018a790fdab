import type { AppContext } from '../../context';
import { transcriptionLog } from './log';

// A vault user's voice note is heard once, in memory: its audio is sealed as it arrives, and the
// server can never read it again. That one try runs here, after the sealed note is stored, one at
// a time per instance, so neither the request that brought the note nor the inbound texts job (which
// takes every user's texts in turn) waits for a transcription service, however slow or hung.
//
// What waits is bounded: past WAITING_MAX_BYTES of audio a note is not held (it is kept
// "not transcribed" at once). An instance that stops loses what it held; the notes' claims then run
// out and the transcription job keeps them "not transcribed" (job.ts).

/** Audio held for its one try, per instance, at most (about a hundred phone-length notes). */
export const WAITING_MAX_BYTES = 64 * 1024 * 1024;

interface Waiting {
  bytes: number;
  tries: Array<() => Promise<void>>;
  /** The run working off `tries`; null when idle. */
  running: Promise<void> | null;
}

const waiting = new WeakMap<AppContext, Waiting>();

function waitingOf(ctx: AppContext): Waiting {
  let state = waiting.get(ctx);
  if (!state) waiting.set(ctx, (state = { bytes: 0, tries: [], running: null }));
  return state;
}

/**
 * Holds `bytes` of audio until `hear` has run, after the tries queued before it. Answers false, and
 * holds nothing, when the instance already holds its most.
 */
export function hearInMemory(ctx: AppContext, bytes: number, hear: () => Promise<void>): boolean {
  const state = waitingOf(ctx);
  if (state.bytes + bytes > WAITING_MAX_BYTES) return false;
  state.bytes += bytes;
  state.tries.push(async () => {
    try {
      await hear();
    } catch (error) {
      transcriptionLog(ctx).warn({ err: error instanceof Error ? error.name : 'unknown' }, 'a voice note heard in memory could not be recorded; it is kept not transcribed');
    } finally {
      state.bytes -= bytes;
    }
  });
  state.running ??= workOff(state);
  return true;
}

async function workOff(state: Waiting): Promise<void> {
  // A turn of the loop first: the change that stored the note has answered its caller.
  await new Promise((resolve) => setImmediate(resolve));
  for (let next = state.tries.shift(); next; next = state.tries.shift()) await next();
  state.running = null;
}

/** Resolves when every note held in memory has had its try (tests, and a clean stop). */
export async function heardInMemory(ctx: AppContext): Promise<void> {
  const state = waiting.get(ctx);
  while (state?.running) await state.running;
}
