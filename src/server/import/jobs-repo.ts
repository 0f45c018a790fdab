import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { ImportJobsTable } from '../db/tables';

// SQL for import jobs. A job is claimed with a compare-and-set on its status and attempts; every
// later write of the claimant names the attempt it holds, so one taken over writes nothing more.

export type ImportJob = Selectable<ImportJobsTable>;

/** What a chunk moves forward, written with the chunk. */
/** Adds a job; false when the user already has one waiting or running. */
export async function insertJob(db: Db, row: Insertable<ImportJobsTable>): Promise<boolean> {
  const result = await db
    .insertInto('import_jobs')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findJob(db: Db, userId: string, id: string): Promise<ImportJob | undefined> {
  return db.selectFrom('import_jobs').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** The user's import that is waiting or running, if any. */
export async function activeJobOf(db: Db, userId: string): Promise<ImportJob | undefined> {
  return db.selectFrom('import_jobs').selectAll().where('user_id', '=', userId).where(sql<boolean>`status in ('queued', 'running')`).executeTakeFirst();
}

/**
 * Claims the oldest job waiting, or running under a claim last renewed before `staleBefore` (its
 * instance died: `takenOver`); answers it as claimed, or nothing when there is none to take.
 */
export async function claimNextJob(db: Db, now: string, staleBefore: string, skip: readonly string[]): Promise<{ job: ImportJob; takenOver: boolean } | undefined> {
  const candidates = await db
    .selectFrom('import_jobs')
    .select(['id', 'status', 'attempts'])
    // Written out: the partial index of active jobs is taken only for its own condition.
    .where(sql<boolean>`status in ('queued', 'running')`)
    .where((eb) => eb.or([eb('status', '=', 'queued'), eb('claimed_at', '<', staleBefore)]))
    .$if(skip.length > 0, (qb) => qb.where('id', 'not in', skip))
    .orderBy('created_at')
    .limit(5)
    .execute();
  for (const candidate of candidates) {
    const [claimed] = await db
      .updateTable('import_jobs')
      .set({ status: 'running', claimed_at: now, updated_at: now, attempts: candidate.attempts + 1 })
      .where('id', '=', candidate.id)
      .where('status', '=', candidate.status)
      .where('attempts', '=', candidate.attempts)
      .returningAll()
      .execute();
    if (claimed) return { job: claimed, takenOver: candidate.status === 'running' };
  }
  return undefined;
}

const held = (db: Db, job: Pick<ImportJob, 'id' | 'attempts'>) =>
  db.updateTable('import_jobs').where('id', '=', job.id).where('attempts', '=', job.attempts).where('status', '=', 'running');

/** Writes a job's progress (and renews its claim); false when the claim was taken over. */
export async function saveProgress(db: Db, job: Pick<ImportJob, 'id' | 'attempts'>, changes: Partial<ImportJob>, now: string): Promise<boolean> {
  const result = await held(db, job).set({ ...changes, claimed_at: now, updated_at: now }).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Renews a running job's claim every `everyMs` until stopped, so a chunk that takes long (a batch of
 * photos being decoded) is not taken for a dead instance's; a claim taken over is left alone.
 */
export function keepClaim(db: Db, job: Pick<ImportJob, 'id' | 'attempts'>, now: () => string, everyMs: number): () => void {
  const timer = setInterval(() => void saveProgress(db, job, {}, now()).catch(() => undefined), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Ends a job (done or failed) under its claim. */
export async function endJob(db: Db, job: Pick<ImportJob, 'id' | 'attempts'>, changes: Partial<ImportJob> & { status: 'done' | 'failed' }, now: string): Promise<boolean> {
  const result = await held(db, job).set({ ...changes, claimed_at: null, updated_at: now, finished_at: now }).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Notes why the job's run stopped, under its claim, which it keeps (taken over once stale). */
export async function noteStop(db: Db, job: Pick<ImportJob, 'id' | 'attempts'>, reason: string): Promise<void> {
  await held(db, job).set({ error: reason }).execute();
}

/** Gives a job back to the queue (the instance is shutting down): the next claim goes on with it. */
export async function releaseJob(db: Db, job: Pick<ImportJob, 'id' | 'attempts'>, now: string): Promise<void> {
  await held(db, job).set({ status: 'queued', claimed_at: null, updated_at: now }).execute();
}
