import type { ImportProgress } from '../../shared/import';
import { RATE_WINDOW_MS } from '../../shared/limits';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { conflict, notFound, rateLimited } from '../errors';
import { isUuid, newId } from '../ids';
import { loadOwner, ownerSalt } from '../journal/owner';
import { hit, rateLimitKey } from '../rate-limit';
import { activeJobOf, findJob, insertJob } from './jobs-repo';
import { presentImport } from './present';
import { kickImports } from './runner';
import { deleteParts, type UploadRef } from './stored-upload';
import type { StoredUpload } from './upload';

export const IMPORTS_PER_WINDOW = 10;

/**
 * Before an upload is taken: within the user's allowance, and no other import of theirs waiting or
 * running. Needs sign-in only, like export: a user whose access ended may still bring their journal in.
 */
export async function prepareImport(ctx: AppContext, userId: string): Promise<UploadRef> {
  if (!(await hit(ctx, rateLimitKey('import', userId), { limit: IMPORTS_PER_WINDOW, windowMs: RATE_WINDOW_MS }))) {
    throw rateLimited(messages.importer.rateLimited);
  }
  if (await activeJobOf(ctx.db, userId)) throw conflict(messages.importer.alreadyRunning);
  const owner = await loadOwner(ctx, userId);
  return { userId, importId: newId(), salt: owner.salt };
}

/** POST /api/import, once the upload is stored: the import waits for the runner, which is woken. */
export async function queueImport(ctx: AppContext, ref: UploadRef, upload: StoredUpload): Promise<{ import_id: string }> {
  const now = ctx.clock.now().toISOString();
  const row = { id: ref.importId, user_id: ref.userId, status: 'queued' as const, file_bytes: upload.bytes, file_parts: upload.parts, created_at: now, updated_at: now };
  if (!(await insertJob(ctx.db, row))) {
    // Another upload of the user's got in first.
    await deleteParts(ctx, ref, upload.parts);
    throw conflict(messages.importer.alreadyRunning);
  }
  kickImports(ctx);
  return { import_id: ref.importId };
}

/** GET /api/imports/:id: how the user's import stands. */
export async function importStatus(ctx: AppContext, userId: string, importId: string): Promise<ImportProgress> {
  const job = isUuid(importId) ? await findJob(ctx.db, userId, importId) : undefined;
  if (!job) throw notFound(messages.importer.notFound);
  return presentImport(ctx, job, await ownerSalt(ctx, userId));
}

/** An account being deleted: the upload its import keeps in the photo store goes with it. */
export async function removeImportUpload(ctx: AppContext, userId: string): Promise<void> {
  const job = await activeJobOf(ctx.db, userId);
  if (job) await deleteParts(ctx, { userId, importId: job.id }, job.file_parts);
}
