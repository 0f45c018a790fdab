import type { AppContext } from '../context';

// The dev phone's calls (development only): the recording a simulated call made, served at a local
// URL as Twilio serves its recordings, and what the caller said, which the development transcriber
// hears. In memory: a restart forgets them, as Twilio's copy is gone once fetched.

export interface RecordedCall {
  audio: Buffer;
  said: string;
}

/** Kept at most: the newest calls of a development session. */
const KEPT = 20;

const byApp = new WeakMap<AppContext, Map<string, RecordedCall>>();

function store(ctx: AppContext): Map<string, RecordedCall> {
  let calls = byApp.get(ctx);
  if (!calls) byApp.set(ctx, (calls = new Map()));
  return calls;
}

export function keepRecordedCall(ctx: AppContext, recordingSid: string, call: RecordedCall): void {
  const calls = store(ctx);
  calls.set(recordingSid, call);
  for (const sid of calls.keys()) {
    if (calls.size <= KEPT) break;
    calls.delete(sid);
  }
}

export function recordedCall(ctx: AppContext, recordingSid: string): RecordedCall | undefined {
  return byApp.get(ctx)?.get(recordingSid);
}

/**
 * The development transcriber: with the SMS simulator on, what the dev phone's caller typed is
 * what was heard. Undefined otherwise (the recording is transcribed as any other).
 */
export function developmentTranscript(ctx: AppContext, recordingSid: string): string | undefined {
  if (ctx.config.isProduction || !ctx.simulators.sms) return undefined;
  return recordedCall(ctx, recordingSid)?.said || undefined;
}
