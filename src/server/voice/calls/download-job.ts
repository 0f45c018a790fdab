import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { VOICE_MAX_BYTES } from '../../../shared/voice-messages';
import type { AppContext } from '../../context';
import type { VoiceCall } from '../../db/tables';
import { developmentTranscript } from '../../dev/recorded-calls';
import { AppError } from '../../errors';
import { backoffMs } from '../../jobs/backoff';
import { eachAtOnce, workOffClaims } from '../../jobs/claim';
import { authorizationFor } from '../../photos/mms';
import { addRecording } from '../recordings';

// A call's recording, from Twilio into the journal: downloaded (RecordingUrl + .wav, Basic auth),
// attached to the day's phone entry by addRecording, then deleted at Twilio (unless TWILIO_REDACT=false).
// Rows are claimed under a lease; a crash between the download and the attach leaves the row due, so
// the next claim downloads again, and the source key (call:RecordingSid) makes the attach happen once.

/** A claim older than this belongs to an instance that died mid-way; the call is offered again. */
const LEASE_MS = 2 * 60_000;
const BATCH = 20;
/** Downloads side by side: each holds a recording (at most a few MB) in memory. */
const CONCURRENCY = 2;
/** Retry n waits 10 s × 2^(n-1), at most 5 minutes; a Retry-After longer than that is honoured. */
const FIRST_RETRY_MS = 10_000;
const RETRY_CAP_MS = 5 * 60_000;
/** Tried for a day after Twilio reported the recording; then given up (logged). */
const TRY_FOR_MS = 24 * 60 * 60_000;
/** Twilio may answer 404 for a moment after it reports a recording; for longer, the recording is gone. */
const NOT_FOUND_FOR_MS = 10 * 60_000;
/** A download or a delete that goes unanswered this long is tried again. */
const REQUEST_TIMEOUT_MS = 60_000;

export interface CallRecordingsRun {
  attached: number;
  deleted: number;
  retrying: number;
  gaveUp: number;
}

export interface CallRecordingsOptions {
  /** How long a request to Twilio may go unanswered. */
  timeoutMs?: number;
}

// The instant each app's job first ran: that run is the recovery (claims older than it are taken over).
const startedAt = new WeakMap<AppContext, Date>();

/** A try that failed and is to be tried again (after `retryAfterMs` when Twilio said so). */
class TryAgain extends Error {
  constructor(
    reason: string,
    readonly retryAfterMs?: number,
    readonly notFound = false,
  ) {
    super(reason);
  }
}

/** A recording that will never be fetched (not audio, too large). */
class GiveUp extends Error {}

/** Twilio's copy is deleted after the attach: Twilio only, on unless TWILIO_REDACT=false (as for texts). */
function deletesAtTwilio(ctx: AppContext): boolean {
  return ctx.config.sms.provider === 'twilio' && ctx.config.sms.redact;
}

/**
 * The call recordings job: claims recordings Twilio reported (and deletions due), downloads each
 * into its caller's journal and deletes Twilio's copy. The recording callback wakes it; the timer
 * retries, and its first run after a start takes over what a killed instance held.
 */
export async function downloadCallRecordings(ctx: AppContext, log?: FastifyBaseLogger, options: CallRecordingsOptions = {}): Promise<CallRecordingsRun> {
  const run: CallRecordingsRun = { attached: 0, deleted: 0, retrying: 0, gaveUp: 0 };
  if (!startedAt.has(ctx)) startedAt.set(ctx, ctx.clock.now());
  await workOffClaims({
    claim: async () => {
      const rows = await claimDue(ctx, startedAt.get(ctx)!);
      return rows.length ? { rows } : null;
    },
    handle: (rows) =>
      eachAtOnce(rows, CONCURRENCY, async (row) => {
        for (const outcome of await handleCall(ctx, row, log, options.timeoutMs ?? REQUEST_TIMEOUT_MS)) run[outcome]++;
      }),
  });
  return run;
}

/**
 * Claims due calls: a recording to download or a copy to delete, past any retry wait, unclaimed or
 * held under an expired lease. The app's first run also takes claims made before it started (their
 * usual owner is this instance before a crash); taking a live worker's claim is safe too, since the
 * attach is idempotent and a second delete finds the recording gone.
 */
async function claimDue(ctx: AppContext, started: Date): Promise<VoiceCall[]> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const leaseCutoff = new Date(Math.max(now.getTime() - LEASE_MS, started.getTime())).toISOString();
  const due = await ctx.db
    .selectFrom('voice_calls')
    .select('id')
    // Written out, not bound, so the planner sees it is voice_calls_due_idx's own condition and
    // takes that index, instead of reading every call ever made.
    .where(sql<boolean>`status in ('download', 'delete')`)
    .where('next_at', '<=', nowIso)
    .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', leaseCutoff)]))
    .orderBy('next_at')
    .limit(BATCH)
    .execute();
  if (!due.length) return [];
  return ctx.db
    .updateTable('voice_calls')
    .set((eb) => ({ claimed_at: nowIso, updated_at: nowIso, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due.map((r) => r.id))
    .where('status', 'in', ['download', 'delete'])
    .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', leaseCutoff)]))
    .returningAll()
    .execute();
}

type Outcome = keyof CallRecordingsRun;

async function handleCall(ctx: AppContext, claimed: VoiceCall, log: FastifyBaseLogger | undefined, timeoutMs: number): Promise<Outcome[]> {
  let row = claimed;
  const outcomes: Outcome[] = [];
  // Only while the claim is still this worker's: a worker that took it over decides from then on.
  const settle = async (changes: Partial<Pick<VoiceCall, 'status' | 'attempts' | 'next_at' | 'claimed_at' | 'done_at' | 'error'>>) => {
    const result = await ctx.db
      .updateTable('voice_calls')
      .set({ ...changes, updated_at: ctx.clock.now().toISOString() })
      .where('id', '=', row.id)
      .where('claimed_at', '=', claimed.claimed_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  };
  const giveUp = async (reason: string) => {
    const step = row.status;
    const now = ctx.clock.now().toISOString();
    // A copy that could not be deleted leaves the recording in the journal: the call is done all the same.
    if (await settle({ status: step === 'delete' ? 'done' : 'failed', claimed_at: null, next_at: null, done_at: now, error: reason })) {
      log?.warn({ job: 'call-recordings', callId: row.id, recordingSid: row.recording_sid, step, reason }, step === 'delete' ? 'call recording not deleted at Twilio' : 'call recording given up');
      outcomes.push('gaveUp');
    }
    return outcomes;
  };
  try {
    if (row.status === 'download') {
      const audio = await download(ctx, row, timeoutMs);
      const transcript = developmentTranscript(ctx, row.recording_sid!);
      await addRecording(ctx, row.user_id, {
        audio,
        mimeType: 'audio/wav',
        origin: 'call',
        receivedAt: new Date(row.started_at),
        sourceKey: `call:${row.recording_sid}`,
        ...(transcript !== undefined && { transcript }),
      });
      outcomes.push('attached');
      const now = ctx.clock.now().toISOString();
      if (!deletesAtTwilio(ctx)) {
        await settle({ status: 'done', claimed_at: null, next_at: null, done_at: now, error: null });
        return outcomes;
      }
      // Still under this claim: the delete is tried at once, as its first attempt.
      if (!(await settle({ status: 'delete', attempts: 1, next_at: now, error: null }))) return outcomes;
      row = { ...row, status: 'delete', attempts: 1 };
    }
    await deleteAtTwilio(ctx, row, timeoutMs);
    if (await settle({ status: 'done', claimed_at: null, next_at: null, done_at: ctx.clock.now().toISOString(), error: null })) outcomes.push('deleted');
    return outcomes;
  } catch (err) {
    if (err instanceof GiveUp) return giveUp(err.message);
    if (err instanceof AppError && (err.code === 'INVALID_INPUT' || err.code === 'PAYLOAD_TOO_LARGE')) return giveUp(`refused: ${err.code}`);
    const now = ctx.clock.now();
    const reason = (err instanceof Error ? err.message : String(err)).slice(0, 300);
    const since = now.getTime() - Date.parse(row.recording_received_at ?? row.started_at);
    if (err instanceof TryAgain && err.notFound && since > NOT_FOUND_FOR_MS) return giveUp('not found at Twilio');
    if (since > TRY_FOR_MS) return giveUp(reason);
    const wait = Math.max(backoffMs(row.attempts, FIRST_RETRY_MS, RETRY_CAP_MS), err instanceof TryAgain ? (err.retryAfterMs ?? 0) : 0);
    if (await settle({ claimed_at: null, next_at: new Date(now.getTime() + wait).toISOString(), error: reason })) outcomes.push('retrying');
    return outcomes;
  }
}

/** Retry-After in seconds or as a date, in milliseconds from now. */
function retryAfterOf(response: Response, now: Date): number | undefined {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/** A request to Twilio that fails by throwing TryAgain for anything but an answer in the 2xx range. */
async function twilioRequest(ctx: AppContext, url: URL, method: 'GET' | 'DELETE', timeoutMs: number): Promise<Response> {
  const authorization = authorizationFor(ctx, url);
  let response: Response;
  try {
    response = await fetch(url, { method, headers: authorization ? { authorization } : {}, redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    throw new TryAgain(timedOut ? `no answer in ${timeoutMs} ms` : 'connection failed');
  }
  if (response.ok) return response;
  await response.body?.cancel();
  throw new TryAgain(`HTTP ${response.status}`, response.status === 429 ? retryAfterOf(response, ctx.clock.now()) : undefined, response.status === 404);
}

/** The recording as a WAV (Twilio serves it so at RecordingUrl + .wav), at most the voice notes' 25 MB. */
async function download(ctx: AppContext, row: VoiceCall, timeoutMs: number): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(`${row.recording_url}.wav`);
  } catch {
    throw new GiveUp('not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new GiveUp('not an HTTP URL');
  const response = await twilioRequest(ctx, url, 'GET', timeoutMs);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > VOICE_MAX_BYTES) throw new GiveUp('larger than 25 MB');
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof GiveUp) throw err;
    // The answer began, then stalled or broke off: the whole download is tried again.
    throw new TryAgain('download broke off');
  }
  return Buffer.concat(chunks);
}

/** Deletes Twilio's copy; one already gone (404) is deleted all the same. */
async function deleteAtTwilio(ctx: AppContext, row: VoiceCall, timeoutMs: number): Promise<void> {
  const sms = ctx.config.sms;
  if (sms.provider !== 'twilio') return;
  const url = new URL(`${sms.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(sms.accountSid)}/Recordings/${encodeURIComponent(row.recording_sid!)}.json`);
  try {
    await twilioRequest(ctx, url, 'DELETE', timeoutMs);
  } catch (err) {
    if (err instanceof TryAgain && err.notFound) return;
    throw err;
  }
}
