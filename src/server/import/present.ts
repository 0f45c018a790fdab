import type { ImportProgress, ImportStatus } from '../../shared/import';
import type { AppContext } from '../context';
import type { ImportJob } from './jobs-repo';
import { ReasonTally } from './reasons';

/** GET /api/imports/:id: a job as the owner sees it (its reasons decrypted with the owner's key). */
export function presentImport(ctx: AppContext, job: ImportJob, salt: string): ImportProgress {
  return {
    id: job.id,
    status: job.status,
    total: Number(job.total),
    imported: Number(job.imported),
    skipped: Number(job.skipped),
    photos_imported: Number(job.photos_imported),
    photos_skipped: Number(job.photos_skipped),
    reasons: ReasonTally.decrypt(ctx, job.user_id, salt, job.reasons).list(),
    // A run that stopped and was taken up again notes why; only a failed import says so.
    error: job.status === 'failed' ? job.error : null,
  };
}

type Counts = Pick<ImportProgress, 'imported' | 'skipped' | 'photos_imported' | 'photos_skipped'>;

/** Tells the owner's open pages how the import stands: counts only. */
export function publishProgress(ctx: AppContext, userId: string, job: Counts & { id: string; status: ImportStatus; total: number }): void {
  ctx.events.publish(userId, {
    type: 'import.progress',
    import_id: job.id,
    status: job.status,
    total: Number(job.total),
    imported: Number(job.imported),
    skipped: Number(job.skipped),
    photos_imported: Number(job.photos_imported),
    photos_skipped: Number(job.photos_skipped),
  });
}
