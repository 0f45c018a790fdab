import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { transcribeAudio, type TranscriptionOutcome } from './client';
import { LOAD_TIMEOUT_MS, transcribeLocally } from './local';

// The one place that chooses how a voice note is transcribed: by Whisper on this server
// (WHISPER_MODEL, local.ts) or by a transcription service (TRANSCRIBE_URL, client.ts). Both are
// never set together (config.ts refuses it); with neither, notes are kept untranscribed.

/**
 * The longest one try may take, decoding aside: a request's timeout; on this server, waiting for
 * the try before it (a vault user's upload) and then its own work, each bounded by the timeout, and
 * loading the model when it is not. Null when nothing transcribes.
 */
export function transcriptionTryMs(config: Config): number | null {
  if (config.whisper) return 2 * config.whisper.timeoutMs + LOAD_TIMEOUT_MS;
  return config.transcription?.timeoutMs ?? null;
}

/** Decodes the audio and transcribes it once, by the engine configured. Never throws for what the engine or the audio does. */
export async function transcribe(ctx: AppContext, audio: Buffer, recordingId: string | null): Promise<TranscriptionOutcome> {
  if (ctx.config.whisper) return transcribeLocally(ctx, ctx.config.whisper, audio, recordingId);
  if (ctx.config.transcription) return transcribeAudio(ctx, ctx.config.transcription, audio, recordingId);
  return { kind: 'failed', reason: 'transcription not set up' };
}

/**
 * One try at a transcript in memory, bounded (transcriptionTryMs): for a vault user's audio, which
 * is sealed as it arrives and can never be read by the server again. Null when nothing transcribes
 * or on any failure (logged by its kind only); the recording is then kept "not transcribed".
 */
export async function transcribeOnce(ctx: AppContext, audio: Buffer): Promise<string | null> {
  if (!ctx.config.voice.transcribes) return null;
  try {
    const outcome = await transcribe(ctx, audio, null);
    return outcome.kind === 'transcribed' ? outcome.text : null;
  } catch {
    return null;
  }
}
