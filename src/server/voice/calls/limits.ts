import type { AppContext } from '../../context';

/** The longest a call records (VOICE_MAX_SECONDS), in seconds. */
export const callMaxSeconds = (ctx: AppContext): number => ctx.config.voice.maxSeconds;
