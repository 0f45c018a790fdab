import { setImmediate as nextTurn } from 'node:timers/promises';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { loadOwner } from '../journal/owner';
import { endJob, keepClaim, saveProgress, type ImportJob } from './jobs-repo';
import { publishProgress } from './present';
import { startReader } from './reader/client';
import { ReasonTally } from './reasons';
import { addImportedRecordings, namesRecordings } from './recordings';
import { deleteParts, type UploadRef } from './stored-upload';
import { ClaimLost, writeChunk, type ImportProgressState } from './write-chunk';
import type { ImportedEntry } from '../../shared/import/types';

/** The claim is renewed this often while the job runs, well inside STALE_CLAIM_MS (runner.ts). */
export const HEARTBEAT_MS = 10_000;

/** Asked to stop (the instance is shutting down): the job goes back to the queue where it stands. */
export class Stopped extends Error {}

interface RunControl {
  stopped(): boolean;
}

/**
 * Works one claimed import through: the reader thread parses the file, and each batch it hands over
 * is written in a chunk that moves the job's position forward, then its voice recordings are added.
 * A file the reader refuses fails the job with the reader's message; anything else leaves the job
 * claimed, to be taken up again once the claim is stale (the same as after a crash), from its
 * position, or from the chunk whose recordings were still being added.
 */
export async function runImport(ctx: AppContext, job: ImportJob, control: RunControl): Promise<void> {
  const owner = await loadOwner(ctx, job.user_id).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
    throw error;
  });
  // The account was deleted meanwhile (its job row with it): only the upload is left to remove.
  if (!owner) return deleteParts(ctx, { userId: job.user_id, importId: job.id }, job.file_parts);
  const ref: UploadRef = { userId: job.user_id, importId: job.id, salt: owner.salt };
  // Entries written before a stop whose recordings may not all be in: read again, for those only.
  let again = job.audios_from === null ? 0 : job.position - job.audios_from;
  const reader = startReader(ctx, ref, { size: job.file_bytes, skip: job.audios_from ?? job.position, timeZone: owner.timezone });
  const now = () => ctx.clock.now().toISOString();
  const stopHeartbeat = keepClaim(ctx.db, job, now, HEARTBEAT_MS);
  let state: ImportProgressState = {
    position: job.position,
    imported: job.imported,
    skipped: job.skipped,
    photos_imported: job.photos_imported,
    photos_skipped: job.photos_skipped,
    tally: ReasonTally.decrypt(ctx, job.user_id, owner.salt, job.reasons),
    smsDays: new Map(),
  };
  const progress = (status: ImportJob['status'], total: number) => publishProgress(ctx, job.user_id, { id: job.id, status, total, ...state });
  const writer = { ctx, job, owner: { userId: job.user_id, salt: owner.salt }, reader };
  const addRecordings = async (entries: readonly ImportedEntry[], finished: boolean) => {
    await addImportedRecordings(writer, entries, state.tally);
    if (finished && !(await saveProgress(ctx.db, job, { audios_from: null, reasons: state.tally.encrypt(ctx, job.user_id, owner.salt) }, now()))) throw new ClaimLost();
  };
  try {
    const { format, total } = await reader.opened();
    if (!(await saveProgress(ctx.db, job, { format, total }, now()))) throw new ClaimLost();
    progress('running', total);
    for (;;) {
      if (control.stopped()) throw new Stopped();
      const batch = await reader.next();
      const written = batch.entries.slice(0, again);
      const entries = batch.entries.slice(written.length);
      if (written.length) {
        again -= written.length;
        await addRecordings(written, again === 0);
      }
      if (entries.length) {
        state = await writeChunk(writer, entries, state);
        if (namesRecordings(entries)) await addRecordings(entries, true);
        progress('running', total);
      }
      if (batch.done) break;
      // Other requests take their turn between chunks.
      await nextTurn();
    }
    if (!(await endJob(ctx.db, job, { status: 'done' }, now()))) throw new ClaimLost();
    progress('done', total);
    await deleteParts(ctx, ref, job.file_parts);
  } catch (error) {
    if (error instanceof AppError) {
      // The file itself is at fault: say why, and keep what was imported before it.
      if (await endJob(ctx.db, job, { status: 'failed', error: error.message }, now())) {
        progress('failed', job.total);
        await deleteParts(ctx, ref, job.file_parts);
      }
      return;
    }
    throw error;
  } finally {
    stopHeartbeat();
    await reader.close();
  }
}

/** Fails a job that kept stopping (a file that crashes its reader, say) rather than trying forever. */
export async function giveUp(ctx: AppContext, job: ImportJob): Promise<void> {
  // The reason the last run stopped, when it said one (a crash of the instance leaves none).
  const error = job.error ? `${messages.importer.stalled} ${messages.importer.lastStop(job.error)}` : messages.importer.stalled;
  if (await endJob(ctx.db, job, { status: 'failed', error }, ctx.clock.now().toISOString())) {
    publishProgress(ctx, job.user_id, { ...job, status: 'failed' });
    await deleteParts(ctx, { userId: job.user_id, importId: job.id }, job.file_parts);
  }
}
