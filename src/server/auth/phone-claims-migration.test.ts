import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { down, up } from '../db/migrations/2026-11-25-0600-phone-claims';
import { buildSmsTestApp, type SmsTestApp } from '../test/sms';
import { buildUser, uniquePhone } from '../test/factories';
import { isUniqueViolation } from './repo';

// Migration 0600 rebuilds SQLite's profiles table (a column's UNIQUE cannot be dropped there): every
// row, column and index must come through, on both databases, and the number stay unique among
// verified accounts.
describe('migration 2026-11-25-0600-phone-claims', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());

  const db = () => t.ctx.db as unknown as Kysely<any>;
  const profileIndexes = async () =>
    t.ctx.dbKind === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'profiles' and sql is not null`.execute(db())).rows.map((r) => r.name).sort()
      : (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'profiles' and indexname <> 'profiles_pkey'`.execute(db())).rows.map((r) => r.name).sort();

  it('keeps every profile and index when undone and done again, and lets pending sign-ups share a number', async () => {
    const verified = await buildUser(t);
    const pending = await buildUser(t, { verified: false });
    const before = await db().selectFrom('profiles').selectAll().where('id', 'in', [verified.id, pending.id]).orderBy('id').execute();
    const indexes = await profileIndexes();

    await down(db());
    const undone = await profileIndexes();
    expect(undone).not.toContain('profiles_verified_phone_idx');
    await up(db());

    expect(await profileIndexes()).toEqual(indexes);
    const after = await db().selectFrom('profiles').selectAll().where('id', 'in', [verified.id, pending.id]).orderBy('id').execute();
    // The pending profile's lapse time is rebuilt from its sign-up; its code is gone with the column.
    const { verification_code: _code, verification_expires_at: lapses, ...pendingAfter } = after.find((p) => p.id === pending.id)!;
    const { verification_code: _c, verification_expires_at: _l, ...pendingBefore } = before.find((p) => p.id === pending.id)!;
    expect(pendingAfter).toEqual(pendingBefore);
    expect(lapses).toBe(new Date(Date.parse(pendingBefore.created_at) + 10 * 60_000).toISOString());
    expect(after.find((p) => p.id === verified.id)).toEqual(before.find((p) => p.id === verified.id));

    // Two pending sign-ups may claim one number; two verified accounts may not hold one.
    const claimed = uniquePhone();
    await buildUser(t, { phone: claimed, verified: false });
    await buildUser(t, { phone: claimed, verified: false });
    await buildUser(t, { phone: claimed, verified: true });
    const second = await buildUser(t, { phone: claimed, verified: true }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isUniqueViolation(second)).toBe(true);
  });
});
