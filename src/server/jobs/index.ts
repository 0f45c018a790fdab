import type { FastifyInstance } from 'fastify';
import { stopSending } from '../sms/sends-in-flight';
import { closeLocalWhisper } from '../voice/transcription/local';
import { useTranscriptionLog } from '../voice/transcription/log';
import { jobDefinitions } from './definitions';
import { createScheduler, type JobDefinition } from './scheduler';

/**
 * Starts the background scheduler when the app is ready (unless JOBS=off; tests call the job
 * functions directly) and stops it on close, after the running jobs have finished.
 */
export function registerJobs(app: FastifyInstance, jobs: JobDefinition[] = jobDefinitions): void {
  const ctx = app.ctx;
  const log = app.log.child({ component: 'jobs' });
  // Transcription logs a refused key or a failure's kind, from the job and from a vault user's upload.
  useTranscriptionLog(ctx, app.log.child({ component: 'transcription' }));
  const onRun = (name: string, lagMs: number, durationMs: number) => ctx.metrics.jobRun(name, lagMs / 1000, durationMs / 1000);
  const scheduler = ctx.config.jobs ? createScheduler(ctx, jobs, log, onRun) : undefined;
  if (scheduler) {
    // A queued text goes out now rather than at the next tick.
    const stopListening = ctx.jobs.listen((job) => scheduler.trigger(job));
    app.addHook('onReady', async () => scheduler.start());
    app.addHook('onClose', async () => void stopListening());
  }
  // Shutting down: claim no more texts while in-flight requests and sends finish.
  app.addHook('preClose', async () => stopSending(ctx));
  // Registered after the database's own hook, so it runs first (onClose runs in reverse).
  app.addHook('onClose', async () => {
    await scheduler?.stop();
    // The local Whisper engine's process (WHISPER_MODEL) ends with the app.
    closeLocalWhisper(ctx);
  });
}
