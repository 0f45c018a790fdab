import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import type { TranscriptionOutcome } from './client';
import { transcriptionLog } from './log';

// Audio is decoded before either engine hears it (phone audio, AMR and 3GP, is taken by none of
// them): to 16 kHz mono WAV for a service, to 16 kHz mono float samples for Whisper on this server.

/** Per app: whether the missing decoder was logged already (once until a decode succeeds). */
const noDecoderLogged = new WeakMap<AppContext, boolean>();

export type Decoded = { ok: true; audio: Buffer } | { ok: false; outcome: TranscriptionOutcome };

/**
 * The audio decoded by `decode`, or what that means for the recording: 'failed' for audio that does
 * not decode, 'retry' without a decoder (ffmpeg is missing: an operator installs it; logged once).
 */
export async function decodeForTranscription(ctx: AppContext, audio: Buffer, recordingId: string | null, decode: (audio: Buffer) => Promise<Buffer>): Promise<Decoded> {
  try {
    const decoded = await decode(audio);
    noDecoderLogged.delete(ctx);
    return { ok: true, audio: decoded };
  } catch (error) {
    if (error instanceof AppError && error.code === 'UNAVAILABLE') {
      if (!noDecoderLogged.get(ctx)) {
        noDecoderLogged.set(ctx, true);
        transcriptionLog(ctx).error({ recordingId }, 'voice notes cannot be transcribed: no audio decoder (ffmpeg) on this server; they wait and are retried (logged once until one decodes)');
      }
      return { ok: false, outcome: { kind: 'retry', reason: 'no decoder' } };
    }
    return { ok: false, outcome: { kind: 'failed', reason: 'not decodable audio' } };
  }
}
