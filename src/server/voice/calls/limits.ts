import type { AppContext } from '../../context';

/** The longest a call records (VOICE_MAX_SECONDS), in seconds. */
export const callMaxSeconds = (ctx: AppContext): number => (ctx.config as { voice?: { maxSeconds?: number } }).voice?.maxSeconds ?? 300;

/** A call's recording is at most this large (a WAV of the longest call is far smaller). */
export const RECORDING_MAX_BYTES = 25 * 1024 * 1024;
