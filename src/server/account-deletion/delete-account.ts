import type { DeletionSummary } from '../../shared/admin';
import type { AppContext } from '../context';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/tables';
import { removeImportUpload } from '../import/service';
import { changeJournal } from '../journal/changes';
import { removePhotoFiles, removeStaleFiles } from '../photos/service';
import { removeRecordingFiles } from '../voice/recordings';
import { recordSecurityEvent } from '../security/events';
import { cancelBillingFirst } from './cancel-billing';

/** Rows a user's SMS history consists of: theirs, and unattributed ones to or from their phone. */
const smsOfUser = (userId: string, phone: string | null) => (eb: ExpressionBuilder<Database, 'sms_messages'>) =>
  phone
    ? eb.or([eb('user_id', '=', userId), eb.and([eb('user_id', 'is', null), eb.or([eb('from_number', '=', phone), eb('to_number', '=', phone)])])])
    : eb('user_id', '=', userId);

const toCount = (value: unknown) => Number(value ?? 0);

/** How much a user has: entries, photos and texts (what a deletion removes). */
export async function countsOf(db: Db, userId: string, phone: string | null): Promise<DeletionSummary['deletedRecords']> {
  const [entries, photos, sms] = await Promise.all([
    db.selectFrom('journal_entries').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('journal_photos').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('sms_messages').select((eb) => eb.fn.countAll().as('n')).where(smsOfUser(userId, phone)).executeTakeFirst(),
  ]);
  return { journalEntries: toCount(entries?.n), journalPhotos: toCount(photos?.n), smsMessages: toCount(sms?.n) };
}

interface DeletionAudit {
  /** account_deleted (by the user) or admin_user_deleted. */
  eventType: string;
  /** Who asked: the admin, or null when users delete their own account (their id is gone after). */
  actorId: string | null;
  ip: string;
}

/**
 * Deletes an account and everything of it. Billing is cancelled first (if the provider cannot be
 * reached, nothing is deleted); then photo files; then, in one transaction, photos, entries, texts,
 * tokens, subscriber, profile and the account. Deleting the refresh tokens ends every session, and
 * open event streams close at once. Recorded as a security event. Used by the user's own "Delete my
 * account" and by the admin's user deletion.
 */
export async function deleteAccount(ctx: AppContext, userId: string, audit: DeletionAudit): Promise<DeletionSummary | undefined> {
  const user = await ctx.db
    .selectFrom('users')
    .leftJoin('profiles', 'profiles.id', 'users.id')
    .select(['users.id', 'users.email', 'profiles.phone_number', 'profiles.phone_verified'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!user) return undefined;
  // A sign-up that only claimed the number (auth/phone-claims.ts) has no texts of the number's owner.
  const phone = user.phone_verified === 1 ? user.phone_number : null;

  const subscriptionCanceled = await cancelBillingFirst(ctx, userId);

  const filesDeleted: string[] = [];
  const removeFiles = async (db: Db) => {
    const photos = await db.selectFrom('journal_photos').select(['file_path', 'thumb_path']).where('user_id', '=', userId).execute();
    const fresh = photos.filter((p) => !filesDeleted.includes(p.file_path));
    await removePhotoFiles(ctx, fresh);
    for (const p of fresh) filesDeleted.push(p.file_path, p.thumb_path);
    const recordings = await db.selectFrom('journal_recordings').select('file_path').where('user_id', '=', userId).execute();
    const freshRecordings = recordings.filter((r) => !filesDeleted.includes(r.file_path));
    await removeRecordingFiles(ctx, freshRecordings);
    for (const r of freshRecordings) filesDeleted.push(r.file_path);
  };
  await removeFiles(ctx.db);
  await removeImportUpload(ctx, userId);
  // Photo files a Vault replaced with sealed (or opened) copies and has not deleted yet.
  await removeStaleFiles(ctx, userId);

  // A change to the journal like any other (journal/changes.ts): a text or save under way for this
  // account either lands before it, and goes with it, or waits for it and finds no account.
  const { deletedRecords } = await changeJournal(ctx, userId, async (trx) => {
    // A photo added meanwhile goes too.
    await removeFiles(trx);
    const counts = await countsOf(trx, userId, phone);
    await trx.deleteFrom('journal_photos').where('user_id', '=', userId).execute();
    await trx.deleteFrom('journal_recordings').where('user_id', '=', userId).execute();
    await trx.deleteFrom('journal_sms_applied').where('user_id', '=', userId).execute();
    await trx.deleteFrom('journal_entries').where('user_id', '=', userId).execute();
    await trx.deleteFrom('journal_revisions').where('user_id', '=', userId).execute();
    await trx.deleteFrom('sms_messages').where(smsOfUser(userId, phone)).execute();
    await trx.deleteFrom('refresh_tokens').where('user_id', '=', userId).execute();
    await trx.deleteFrom('one_time_tokens').where('user_id', '=', userId).execute();
    await trx.deleteFrom('subscribers').where('user_id', '=', userId).execute();
    await trx.deleteFrom('profiles').where('id', '=', userId).execute();
    await trx.deleteFrom('users').where('id', '=', userId).execute();
    return { entryId: '', journalGone: true, deletedRecords: counts };
  });
  // Every session is gone with the refresh tokens: open streams check theirs and close.
  ctx.events.publish(userId, { type: 'sessions.changed' });

  await recordSecurityEvent(ctx, {
    event_type: audit.eventType,
    identifier: userId,
    severity: 'high',
    user_id: audit.actorId,
    ip: audit.ip,
    details: { deletedUserId: userId, deletedBy: audit.actorId ?? userId, ...deletedRecords, filesDeleted: filesDeleted.length, subscriptionCanceled },
  });
  return { userEmail: user.email, deletedRecords, filesDeleted, subscriptionCanceled };
}
