import type { AppContext } from '../../context';
import type { JournalRecordingRow } from '../../db/tables';
import { AppError } from '../../errors';
import { backoffMs } from '../../jobs/backoff';
import { workOffClaims } from '../../jobs/claim';
import { sendingStopped } from '../../sms/sends-in-flight';
import { markNotTranscribed, readRecordingAudio, recordTranscript } from '../recordings';
import type { TranscriptionOutcome } from './client';
import { transcribe, transcriptionTryMs } from './engine';
import { transcriptionLog } from './log';

// The transcription job: pending recordings, claimed under a lease, are read, decoded, transcribed
// by the engine configured (engine.ts), and their transcript recorded through the journal's one
// write path. A transcription service is mostly waited on (seconds of its time for a few
// milliseconds of ours), so an instance keeps SERVICE_AT_ONCE requests going (decoding is bounded by
// the cores: audio.ts); Whisper on this server takes its cores, so one at a time. Other instances
// take others. A failure worth retrying waits (backoff, or the service's Retry-After); a recording
// still not transcribed a day after it arrived is marked "not transcribed", kept with its audio.
//
// Vault users: their audio is sealed as it arrives, so the server cannot read it later. The instance
// that stored such a note holds it under a claim and tries once from the bytes in memory
// (in-memory.ts, through engine.ts transcribeOnce). A sealed note this job can claim is one whose
// claim ran out (its instance stopped before the try), or one that was pending when its owner turned
// the vault on: it is kept "not transcribed" without a try, since the server can no longer hear it.

/** Retry n waits 30 s × 2^(n-1), at most 30 minutes (spread over its upper half). */
const RETRY_BASE_MS = 30_000;
const RETRY_CAP_MS = 30 * 60_000;
/** A Retry-After longer than this is not waited out whole: the day's deadline still applies. */
const RETRY_AFTER_CAP_MS = 6 * 60 * 60_000;
/** A recording pending this long after it arrived ends "not transcribed". */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/** Tries a recording gets at least, however old ("Transcribe again" on an old one). */
const MIN_TRIES = 5;
/** Recordings one run handles at most; the next run (15 s, or a wake-up) goes on. */
const RUN_LIMIT = 20;
/**
 * Requests to a transcription service an instance keeps going at once: about 4 times the notes a
 * minute of one at a time (19 a minute with a service answering in 2 s), within the usual rate
 * limits of hosted services, and a 429 is waited out like any other.
 */
export const SERVICE_AT_ONCE = 4;

/**
 * The lease: a claim older than this belongs to an instance that stopped mid-recording. Longer
 * than the longest a try can take (decoding, then the request's timeout, or the engine's wait and
 * work: engine.ts transcriptionTryMs), so a live claim is never taken over and no recording is
 * transcribed twice.
 */
export function leaseMs(settings: { timeoutMs: number }): number {
  return settings.timeoutMs + 5 * 60_000;
}

interface TranscriptionRun {
  transcribed: number;
  retried: number;
  failed: number;
}

/**
 * Transcribes due recordings until none is due or the run's limit is reached. Does nothing without
 * TRANSCRIBE_URL or WHISPER_MODEL (recordings are then kept not transcribed from the start).
 */
export async function processTranscriptions(ctx: AppContext, options: { random?: () => number } = {}): Promise<TranscriptionRun> {
  const run: TranscriptionRun = { transcribed: 0, retried: 0, failed: 0 };
  const tryMs = transcriptionTryMs(ctx.config);
  if (tryMs === null) return run;
  const lease = leaseMs({ timeoutMs: tryMs });
  const atOnce = ctx.config.whisper ? 1 : SERVICE_AT_ONCE;
  let claimed = 0;
  const lane = () =>
    workOffClaims({
      // Shutting down: claim nothing more (another instance, or this one's next start, goes on).
      stopped: () => sendingStopped(ctx) || claimed >= RUN_LIMIT,
      claim: async () => {
        const row = await claimNext(ctx, lease);
        if (row) claimed++;
        return row ? { rows: [row] } : null;
      },
      handle: async ([row]) => {
        const outcome = await transcribeClaimed(ctx, row!, options.random ?? Math.random);
        run[outcome]++;
      },
    });
  // Each lane claims its own: the claim is a compare-and-set, so no two take the same recording.
  await Promise.all(Array.from({ length: atOnce }, lane));
  return run;
}

/**
 * Claims the recording due first: pending, past its retry wait, and unclaimed or under an expired
 * lease. The claim is a compare-and-set on the claim time, so of two instances only one
 * wins a recording; the loser looks for the next.
 */
async function claimNext(ctx: AppContext, lease: number): Promise<JournalRecordingRow | null> {
  for (let tries = 0; tries < 5; tries++) {
    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    const leaseCutoff = new Date(now.getTime() - lease).toISOString();
    const due = await ctx.db
      .selectFrom('journal_recordings')
      .select(['id', 'transcribe_claimed_at'])
      .where('transcript_status', '=', 'pending')
      .where((eb) => eb.or([eb('transcribe_next_at', 'is', null), eb('transcribe_next_at', '<=', nowIso)]))
      .where((eb) => eb.or([eb('transcribe_claimed_at', 'is', null), eb('transcribe_claimed_at', '<', leaseCutoff)]))
      .orderBy('transcribe_next_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!due) return null;
    const claimed = await ctx.db
      .updateTable('journal_recordings')
      .set((eb) => ({ transcribe_claimed_at: nowIso, transcribe_attempts: eb('transcribe_attempts', '+', 1) }))
      .where('id', '=', due.id)
      .where('transcript_status', '=', 'pending')
      .where((eb) => (due.transcribe_claimed_at === null ? eb('transcribe_claimed_at', 'is', null) : eb('transcribe_claimed_at', '=', due.transcribe_claimed_at)))
      .returningAll()
      .executeTakeFirst();
    if (claimed) return claimed;
  }
  return null;
}

async function transcribeClaimed(ctx: AppContext, row: JournalRecordingRow, random: () => number): Promise<keyof TranscriptionRun> {
  const log = transcriptionLog(ctx);
  let outcome: TranscriptionOutcome;
  if (Number(row.sealed)) {
    await markNotTranscribed(ctx, row.id, row.user_id, 'sealed before it was transcribed');
    return 'failed';
  }
  try {
    const audio = await readRecordingAudio(ctx, row);
    outcome = await transcribe(ctx, audio, row.id);
  } catch (error) {
    // The audio is gone (the recording deleted meanwhile, or its file lost): nothing to transcribe.
    if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'CONFLICT')) outcome = { kind: 'failed', reason: 'audio unreadable' };
    else outcome = { kind: 'retry', reason: 'audio not read' };
    log.warn({ recordingId: row.id, reason: outcome.reason }, 'could not read a voice note to transcribe it');
  }
  if (outcome.kind === 'transcribed') {
    try {
      await recordTranscript(ctx, row.id, row.user_id, outcome.text);
      return 'transcribed';
    } catch (error) {
      log.warn({ recordingId: row.id, err: error instanceof Error ? error.name : 'unknown' }, 'could not record a transcript; it will be transcribed again');
      outcome = { kind: 'retry', reason: 'transcript not recorded' };
    }
  }
  const now = ctx.clock.now();
  const attempts = Number(row.transcribe_attempts);
  const pastDeadline = now.getTime() - new Date(row.created_at).getTime() >= GIVE_UP_AFTER_MS && attempts >= MIN_TRIES;
  if (outcome.kind === 'failed' || pastDeadline) {
    await markNotTranscribed(ctx, row.id, row.user_id, outcome.reason);
    log.info({ recordingId: row.id, reason: outcome.reason, attempts }, 'voice note kept not transcribed');
    return 'failed';
  }
  const wait = outcome.retryAfterMs !== undefined ? Math.min(outcome.retryAfterMs, RETRY_AFTER_CAP_MS) : backoffMs(attempts, RETRY_BASE_MS, RETRY_CAP_MS, random);
  // Only this claim's holder settles it: an instance that took it over meanwhile owns the outcome.
  await ctx.db
    .updateTable('journal_recordings')
    .set({ transcribe_next_at: new Date(now.getTime() + wait).toISOString(), transcribe_claimed_at: null, transcribe_error: outcome.reason })
    .where('user_id', '=', row.user_id)
    .where('id', '=', row.id)
    .where('transcript_status', '=', 'pending')
    .where('transcribe_claimed_at', '=', row.transcribe_claimed_at)
    .execute();
  return 'retried';
}
