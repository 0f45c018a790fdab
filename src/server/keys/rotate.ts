import type { AppContext } from '../context';
import { masterKeyId } from '../crypto/encryption';
import { emptyCounts, reencryptJournal, type RotationCounts } from './reencrypt-journal';
import { reencryptMessageBatch } from './reencrypt-messages';
import { reencryptSecrets } from './encrypted-secrets';

/** A rotation that cannot run as configured; the message tells the operator what to change. */
export class KeyRotationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyRotationError';
  }
}

interface RotationOptions {
  /** Rows per transaction (entries, photos, messages). */
  batchSize?: number;
  /** Stops cleanly after the user or batch in hand (Ctrl-C); a later run resumes from there. */
  signal?: AbortSignal;
  /** Told after each user and each batch of messages, with the counts so far. */
  onProgress?: (progress: { phase: 'users' | 'messages'; doneThrough: string; counts: RotationCounts }) => void;
}

export interface RotationReport {
  fromKeyId: string;
  toKeyId: string;
  /** Where this run started: null for a fresh rotation, else the last user done by an earlier run. */
  resumedAfterUser: string | null;
  counts: RotationCounts;
  /** True once every user and message was re-encrypted: MASTER_KEY_PREVIOUS can then go. */
  finished: boolean;
  /** True when an earlier run had already finished this rotation (nothing was done). */
  alreadyFinished: boolean;
}

/**
 * Re-encrypts the service's own secrets, then every entry (content, title, tags), photo name, photo file
 * and stored message body under MASTER_KEY, from MASTER_KEY_PREVIOUS, while the service runs. Users
 * go in id order, then message bodies; progress is recorded after each user and each batch
 * (key_rotations), so an interrupted run resumes where it stopped.
 */
export async function rotateMasterKey(ctx: AppContext, options: RotationOptions = {}): Promise<RotationReport> {
  const batchSize = options.batchSize ?? 200;
  const previous = ctx.config.previousMasterKey;
  if (!previous) {
    throw new KeyRotationError('Set MASTER_KEY to the new key and MASTER_KEY_PREVIOUS to the key it replaces, on every instance first (see docs/deploy.md).');
  }
  const fromKeyId = masterKeyId(previous);
  const toKeyId = ctx.cipher.keyId;
  if (fromKeyId === toKeyId) throw new KeyRotationError('MASTER_KEY and MASTER_KEY_PREVIOUS are the same key: set MASTER_KEY to a new one (openssl rand -base64 32).');
  const id = `${fromKeyId}>${toKeyId}`;

  const other = await ctx.db.selectFrom('key_rotations').select(['id']).where('finished_at', 'is', null).where('id', '!=', id).executeTakeFirst();
  if (other) {
    throw new KeyRotationError(`The rotation ${other.id.replace('>', ' to ')} is not finished: run it to the end with its keys first.`);
  }
  const now = () => ctx.clock.now().toISOString();
  await ctx.db
    .insertInto('key_rotations')
    .values({ id, from_key_id: fromKeyId, to_key_id: toKeyId, users_done_through: null, messages_done_through: null, started_at: now(), updated_at: now(), finished_at: null })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const progress = await ctx.db.selectFrom('key_rotations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const counts = emptyCounts();
  const report = (finished: boolean): RotationReport => ({
    fromKeyId,
    toKeyId,
    resumedAfterUser: progress.users_done_through,
    counts,
    finished,
    alreadyFinished: progress.finished_at !== null,
  });
  if (progress.finished_at !== null) return report(true);

  // A few rows: every run re-encrypts what is not yet under the new key.
  await reencryptSecrets(ctx, counts);

  let userCursor = progress.users_done_through ?? '';
  for (;;) {
    const users = await ctx.db.selectFrom('profiles').select(['id', 'key_salt']).where('id', '>', userCursor).orderBy('id').limit(batchSize).execute();
    if (users.length === 0) break;
    for (const user of users) {
      if (options.signal?.aborted) return report(false);
      await reencryptJournal(ctx, { userId: user.id, salt: user.key_salt }, batchSize, counts);
      counts.users += 1;
      userCursor = user.id;
      await ctx.db.updateTable('key_rotations').set({ users_done_through: userCursor, updated_at: now() }).where('id', '=', id).execute();
      options.onProgress?.({ phase: 'users', doneThrough: userCursor, counts });
    }
  }

  let messageCursor = progress.messages_done_through ?? '';
  for (;;) {
    if (options.signal?.aborted) return report(false);
    const last = await reencryptMessageBatch(ctx, messageCursor, batchSize, counts);
    if (last === null) break;
    messageCursor = last;
    await ctx.db.updateTable('key_rotations').set({ messages_done_through: messageCursor, updated_at: now() }).where('id', '=', id).execute();
    options.onProgress?.({ phase: 'messages', doneThrough: messageCursor, counts });
  }

  await ctx.db.updateTable('key_rotations').set({ finished_at: now(), updated_at: now() }).where('id', '=', id).execute();
  return report(true);
}
