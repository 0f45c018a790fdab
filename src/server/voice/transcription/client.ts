import type { AppContext } from '../../context';
import type { Config } from '../../config';
import { decodeToWav16k } from '../audio';
import { decodeForTranscription } from './decode';
import { transcriptionLog } from './log';

// The OpenAI-compatible transcription API (`POST {TRANSCRIBE_URL}/audio/transcriptions`), which
// hosted services and self-hosted Whisper servers both speak. The audio is decoded to 16 kHz mono
// WAV first (phone audio, AMR and 3GP, is taken by none of them). Each request is bounded by
// TRANSCRIBE_TIMEOUT_SECONDS, answer included: a server that accepts and then never finishes is a
// timeout like one that never answers.

export type TranscriptionSettings = NonNullable<Config['transcription']>;

/** What one request came to; `reason` is a kind of failure for logs and the row, never content. */
export type TranscriptionOutcome =
  | { kind: 'transcribed'; text: string }
  /** Worth another try later: `retryAfterMs` when the service said when (429 Retry-After). */
  | { kind: 'retry'; reason: string; status?: number; retryAfterMs?: number }
  /** This audio will not be transcribed by trying again (too large, refused as invalid, not audio). */
  | { kind: 'failed'; reason: string; status?: number };

/** Statuses that say the audio itself is refused: trying again would be refused again. */
const REFUSED_AUDIO = new Set([400, 413, 415, 422]);
/** Per app: whether the refused key was logged already (once until a request succeeds again). */
const keyRefusalLogged = new WeakMap<AppContext, boolean>();

/**
 * Retry-After in milliseconds from `now`: a number of seconds or an HTTP date (RFC 9110 10.2.3);
 * null when absent or unreadable.
 */
export function retryAfterMs(value: string | null, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/** Posts 16 kHz WAV audio once and classifies the answer. Never throws. */
export async function postForTranscript(settings: TranscriptionSettings, wav: Buffer, now: () => Date): Promise<TranscriptionOutcome> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'voice-note.wav');
  form.append('model', settings.model);
  form.append('response_format', 'json');
  if (settings.language) form.append('language', settings.language);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
  // One signal for the whole exchange: the answer's body is read under it too.
  const signal = AbortSignal.timeout(settings.timeoutMs);
  try {
    const response = await fetch(`${settings.url}/audio/transcriptions`, { method: 'POST', headers, body: form, signal });
    const body = await response.text();
    const status = response.status;
    if (status === 200) {
      const text = textOf(body);
      return text === null ? { kind: 'retry', reason: 'unreadable answer', status } : { kind: 'transcribed', text };
    }
    if (status === 429) return { kind: 'retry', reason: 'rate limited', status, retryAfterMs: retryAfterMs(response.headers.get('retry-after'), now()) ?? undefined };
    if (status === 401 || status === 403) return { kind: 'retry', reason: 'key refused', status };
    if (REFUSED_AUDIO.has(status)) return { kind: 'failed', reason: status === 413 ? 'audio too large for the service' : 'audio refused by the service', status };
    // 5xx, 404 (a wrong TRANSCRIBE_URL an operator fixes), 408 and anything unexpected: later.
    return { kind: 'retry', reason: 'service error', status };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'retry', reason: 'timed out' };
    return { kind: 'retry', reason: `network: ${networkCause(error)}` };
  }
}

/** `{text}` of a JSON answer, or null. */
function textOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { text?: unknown };
    return typeof parsed.text === 'string' ? parsed.text : null;
  } catch {
    return null;
  }
}

/** A network failure's code (ECONNREFUSED, ENOTFOUND…), not its message (which may carry the URL). */
function networkCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : 'request failed';
}

/**
 * Decodes the audio and asks the service for its transcript, once; logs the outcome's kind (a
 * refused key once, until the service accepts one again). Never throws for what the service or the
 * audio does; 'retry' without a decoder (ffmpeg is missing: an operator installs it).
 */
export async function transcribeAudio(ctx: AppContext, settings: TranscriptionSettings, audio: Buffer, recordingId: string | null): Promise<TranscriptionOutcome> {
  const log = transcriptionLog(ctx);
  const decoded = await decodeForTranscription(ctx, audio, recordingId, decodeToWav16k);
  if (!decoded.ok) return decoded.outcome;
  const outcome = await postForTranscript(settings, decoded.audio, () => ctx.clock.now());
  if (outcome.kind === 'transcribed') {
    keyRefusalLogged.delete(ctx);
    return outcome;
  }
  if (outcome.reason === 'key refused') {
    if (!keyRefusalLogged.get(ctx)) {
      keyRefusalLogged.set(ctx, true);
      log.error(
        { status: outcome.status },
        'the transcription service refuses TRANSCRIBE_API_KEY: set a valid key; voice notes wait and are retried meanwhile (this is logged once until a request succeeds)',
      );
    }
    return outcome;
  }
  log.warn({ recordingId, reason: outcome.reason, status: outcome.status }, outcome.kind === 'failed' ? 'voice note not transcribed' : 'transcription failed; it will be retried');
  return outcome;
}
