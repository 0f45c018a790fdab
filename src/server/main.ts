import { buildApp } from './app';
import type { Config } from './config';
import { releaseUnfinishedSends } from './sms/sends-in-flight';
import { decoderWarning, findDecoders } from './voice/audio';
import { localWhisperProblem } from './voice/transcription/local';

/** How long in-flight requests, jobs and sends get to finish after SIGTERM (container runtimes wait 30 s). */
const SHUTDOWN_GRACE_MS = 20_000;

/**
 * Builds the app and listens. On SIGTERM or SIGINT it drains: stops accepting connections, ends
 * event streams, lets in-flight requests, inbound processing and claimed sends finish, then exits 0.
 * If that takes longer than the grace period (or a second signal comes), texts still being sent are
 * put back in the queue for another instance and the process exits 1.
 */
export async function serve(config: Config): Promise<void> {
  const app = await buildApp(config);
  let draining = false;

  const giveUp = async (reason: string) => {
    const released = await releaseUnfinishedSends(app.ctx).catch(() => 0);
    app.log.warn({ released }, `${reason}: unfinished sends put back in the queue`);
    process.exit(1);
  };

  const shutdown = (signal: NodeJS.Signals) => {
    if (draining) {
      void giveUp(`second ${signal}`);
      return;
    }
    draining = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests and sends');
    setTimeout(() => void giveUp('shutdown took too long'), SHUTDOWN_GRACE_MS).unref();
    app.close().then(
      () => {
        app.log.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err: err instanceof Error ? err.message : String(err) }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // The start log names PUBLIC_URL, where links and sign-in go, never the bound address: a session
  // made on http://127.0.0.1 is not one on http://localhost.
  await app.listen({ port: config.port, host: config.host, listenTextResolver: () => `Jotline is up at ${config.publicUrl}` });
  // Voice notes are probed and decoded by ffprobe and ffmpeg: say so at once when either is missing.
  // With WHISPER_MODEL the model is loaded now (in the engine's own process), and a file that is
  // missing or not a model is said at once too.
  const [found, whisper] = await Promise.all([findDecoders(), localWhisperProblem(app.ctx)]);
  const decoders = decoderWarning(found, config.voice.transcribes);
  if (decoders) app.log.error(decoders);
  if (whisper) app.log.error(whisper);
}
