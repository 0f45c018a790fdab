import type { AdminUserInfo, DeletionSummary } from '../../shared/admin';
import { adminMessages } from '../../shared/admin';
import { normalizeUsPhone } from '../../shared/phone';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { invalidInput, notFound } from '../errors';
import { isUuid } from '../ids';
import { removePhotoFiles } from '../photos/service';
import { recordSecurityEvent } from '../security/events';
import { lastFour, toCount } from './common';

/** A UUID-shaped input is a user id; anything else is tried as an e-mail address, then as a US phone. */
export async function findUserId(ctx: AppContext, q: string): Promise<string | undefined> {
  if (isUuid(q)) {
    return (await ctx.db.selectFrom('users').select('id').where('id', '=', q.toLowerCase()).executeTakeFirst())?.id;
  }
  const byEmail = await ctx.db.selectFrom('users').select('id').where('email', '=', q.toLowerCase()).executeTakeFirst();
  if (byEmail) return byEmail.id;
  const phone = normalizeUsPhone(q);
  if (!phone) return undefined;
  return (await ctx.db.selectFrom('profiles').select('id').where('phone_number', '=', phone).executeTakeFirst())?.id;
}

/** Rows a user's SMS history consists of: theirs, and unattributed ones to or from their phone. */
function smsOf(db: Db, userId: string, phone: string | null) {
  return db.selectFrom('sms_messages').where((eb) =>
    phone
      ? eb.or([eb('user_id', '=', userId), eb.and([eb('user_id', 'is', null), eb.or([eb('from_number', '=', phone), eb('to_number', '=', phone)])])])
      : eb('user_id', '=', userId),
  );
}

async function countsOf(db: Db, userId: string, phone: string | null) {
  const [entries, photos, sms] = await Promise.all([
    db.selectFrom('journal_entries').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('journal_photos').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirst(),
    smsOf(db, userId, phone)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst(),
  ]);
  return { journalEntries: toCount(entries?.n), journalPhotos: toCount(photos?.n), smsMessages: toCount(sms?.n) };
}

/** What the user management page shows: no entry text, the phone as its last four digits. */
export async function lookUpUser(ctx: AppContext, q: string): Promise<AdminUserInfo> {
  const id = await findUserId(ctx, q);
  if (!id) throw notFound(adminMessages.userNotFound);
  const user = await ctx.db
    .selectFrom('users')
    .leftJoin('profiles', 'profiles.id', 'users.id')
    .select(['users.id', 'users.email', 'users.created_at', 'users.is_admin', 'profiles.phone_number', 'profiles.phone_verified'])
    .where('users.id', '=', id)
    .executeTakeFirst();
  if (!user) throw notFound(adminMessages.userNotFound);
  const sub = await ctx.db.selectFrom('subscribers').selectAll().where('user_id', '=', id).executeTakeFirst();
  const now = ctx.clock.now().toISOString();
  const subscribed = !!sub && sub.subscribed === 1 && (sub.subscription_end === null || sub.subscription_end > now);
  const inTrial = !!sub && sub.is_trial === 1 && sub.trial_end !== null && sub.trial_end > now;
  return {
    id: user.id,
    email: user.email,
    phone_last_four: user.phone_number ? lastFour(user.phone_number) : null,
    created_at: user.created_at,
    phone_verified: user.phone_verified === 1,
    is_admin: user.is_admin === 1,
    counts: await countsOf(ctx.db, id, user.phone_number ?? null),
    subscription: sub
      ? {
          subscribed,
          subscription_tier: subscribed ? sub.subscription_tier : null,
          subscription_end: sub.subscription_end,
          is_trial: sub.is_trial === 1,
          trial_end: sub.trial_end,
          hasAccess: subscribed || inTrial,
        }
      : null,
  };
}

/**
 * Deletes a user and everything of theirs: photo files first, then (in one transaction) photos,
 * entries, SMS rows, tokens, subscriber, profile and the account. Recorded as a security event.
 */
export async function deleteUser(ctx: AppContext, admin: { id: string; email: string }, userId: string, ip: string): Promise<DeletionSummary> {
  if (!isUuid(userId)) throw notFound(adminMessages.userNotFound);
  if (userId.toLowerCase() === admin.id.toLowerCase()) throw invalidInput(adminMessages.cannotDeleteSelf);
  const user = await ctx.db
    .selectFrom('users')
    .leftJoin('profiles', 'profiles.id', 'users.id')
    .select(['users.id', 'users.email', 'profiles.phone_number'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!user) throw notFound(adminMessages.userNotFound);
  const phone = user.phone_number ?? null;

  const filesDeleted: string[] = [];
  const removeFiles = async (db: Db) => {
    const photos = await db.selectFrom('journal_photos').select(['file_path', 'thumb_path']).where('user_id', '=', userId).execute();
    const fresh = photos.filter((p) => !filesDeleted.includes(p.file_path));
    await removePhotoFiles(ctx, fresh);
    for (const p of fresh) filesDeleted.push(p.file_path, p.thumb_path);
  };
  await removeFiles(ctx.db);

  const deletedRecords = await ctx.db.transaction().execute(async (trx) => {
    // A photo added meanwhile goes too.
    await removeFiles(trx);
    const counts = await countsOf(trx, userId, phone);
    await trx.deleteFrom('journal_photos').where('user_id', '=', userId).execute();
    await trx.deleteFrom('journal_sms_applied').where('user_id', '=', userId).execute();
    await trx.deleteFrom('journal_entries').where('user_id', '=', userId).execute();
    await trx.deleteFrom('journal_revisions').where('user_id', '=', userId).execute();
    await trx
      .deleteFrom('sms_messages')
      .where((eb) =>
        phone
          ? eb.or([eb('user_id', '=', userId), eb.and([eb('user_id', 'is', null), eb.or([eb('from_number', '=', phone), eb('to_number', '=', phone)])])])
          : eb('user_id', '=', userId),
      )
      .execute();
    await trx.deleteFrom('refresh_tokens').where('user_id', '=', userId).execute();
    await trx.deleteFrom('one_time_tokens').where('user_id', '=', userId).execute();
    await trx.deleteFrom('subscribers').where('user_id', '=', userId).execute();
    await trx.deleteFrom('profiles').where('id', '=', userId).execute();
    await trx.deleteFrom('users').where('id', '=', userId).execute();
    return counts;
  });
  ctx.journalCache.forget(userId);

  await recordSecurityEvent(ctx, {
    event_type: 'admin_user_deleted',
    identifier: userId,
    severity: 'high',
    user_id: admin.id,
    ip,
    details: { deletedUserId: userId, deletedBy: admin.id, ...deletedRecords, filesDeleted: filesDeleted.length },
  });
  return { userEmail: user.email, deletedRecords, filesDeleted };
}
