/** The background jobs a request may wake (the names the scheduler knows them by, jobs/definitions.ts). */
export const OUTBOUND_SENDER = 'outbound-sender';
export const INBOUND_TEXTS = 'inbound-texts';
/** Call recordings Twilio reported, waiting to be fetched into the journal (voice_calls: status 'download' or 'delete', due). */
export const CALL_RECORDINGS = 'call-recordings';
/** Voice recordings waiting for their transcript (journal_recordings: status 'pending', due). */
export const TRANSCRIPTIONS = 'transcriptions';

type Listener = (job: string) => void;

/**
 * Asks a background job to run now rather than at its next tick. Part of the context from the start:
 * the scheduler, when this instance runs jobs, listens; without one (JOBS=off, the CLI) a wake is
 * heard by no one and the job's own timer, on whichever instance runs it, picks the work up.
 */
export interface JobWakeups {
  wake(job: string): void;
  /** Hears every wake until the returned function is called. */
  listen(listener: Listener): () => void;
}

export function createJobWakeups(): JobWakeups {
  const listeners = new Set<Listener>();
  return {
    wake(job) {
      for (const listener of listeners) listener(job);
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
