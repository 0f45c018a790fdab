import type { Db } from '../db/database';
import type { Insertable } from 'kysely';
import type { ProfilesTable, SubscribersTable, UsersTable } from '../db/tables';

/** A user with the profile fields the auth API presents. */
export interface Account {
  id: string;
  email: string;
  is_admin: number;
  created_at: string;
  email_verified_at: string | null;
  phone_number: string | null;
  phone_verified: number | null;
  /** When an unverified sign-up lapses (pending-sign-ups.ts). */
  verification_expires_at: string | null;
}

/** A user's password hash, to check a password again (auth/fresh-proof.ts). */
export async function findPasswordHash(db: Db, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst())?.password_hash;
}

/** The account's address if its owner confirmed it; security mails go nowhere else (a typo, or someone else's address). */
export async function confirmedAddressOf(db: Db, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select(['email', 'email_verified_at']).where('id', '=', userId).executeTakeFirst();
  return row?.email_verified_at ? row.email : undefined;
}

export async function findUserByEmail(db: Db, email: string) {
  return db.selectFrom('users').select(['id', 'email', 'password_hash', 'email_verified_at']).where('email', '=', email).executeTakeFirst();
}

export async function findAccount(db: Db, userId: string): Promise<Account | undefined> {
  return db
    .selectFrom('users')
    .leftJoin('profiles', 'profiles.id', 'users.id')
    .select([
      'users.id',
      'users.email',
      'users.is_admin',
      'users.created_at',
      'users.email_verified_at',
      'profiles.phone_number',
      'profiles.phone_verified',
      'profiles.verification_expires_at',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

export async function emailExists(db: Db, email: string): Promise<boolean> {
  return !!(await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst());
}

/** True when an account verified the number (pending sign-ups only claim theirs: auth/phone-claims.ts). */
export async function phoneExists(db: Db, phone: string): Promise<boolean> {
  return !!(await db.selectFrom('profiles').select('id').where('phone_number', '=', phone).where('phone_verified', '=', 1).executeTakeFirst());
}

export async function isPhoneVerified(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('profiles').select('phone_verified').where('id', '=', userId).executeTakeFirst();
  return row?.phone_verified === 1;
}

/** The three rows a new account starts with. */
interface NewAccountRows {
  user: Insertable<UsersTable>;
  profile: Insertable<ProfilesTable>;
  subscriber: Insertable<SubscribersTable>;
}

export async function insertAccount(db: Db, rows: NewAccountRows): Promise<void> {
  await db.insertInto('users').values(rows.user).execute();
  await db.insertInto('profiles').values(rows.profile).execute();
  await db.insertInto('subscribers').values(rows.subscriber).execute();
}

export async function updatePasswordHash(db: Db, userId: string, passwordHash: string, now: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
}

/**
 * True for a unique-constraint failure on either engine (SQLite: SQLITE_CONSTRAINT_UNIQUE;
 * PostgreSQL: 23505), e.g. two sign-ups racing for one e-mail address.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Removes an account; everything that belongs to it goes with it (foreign keys cascade). */
export async function deleteUser(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}
