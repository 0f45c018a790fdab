import type { AppContext } from '../../context';

// Transcription's log lines: the recording's id, the kind of failure and the HTTP status, never the
// audio, the transcript or the key.

export interface TranscriptionLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const logs = new WeakMap<AppContext, TranscriptionLog>();

const stderrLog: TranscriptionLog = {
  info: () => undefined,
  warn: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`),
  error: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`),
};

/** Where this app's transcription lines go (the app's logger; set once as the app is built). */
export function useTranscriptionLog(ctx: AppContext, log: TranscriptionLog): void {
  logs.set(ctx, log);
}

export function transcriptionLog(ctx: AppContext): TranscriptionLog {
  return logs.get(ctx) ?? stderrLog;
}
