import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Frozen: never import application code here. Portable SQL only.
//
// A phone number belongs to the account that verified it; pending sign-ups only claim it, and
// several may claim one number (the phone's owner picks which, by text). So the number is unique
// among verified profiles only, and each pending sign-up gets the code its owner can reply with and
// the time it lapses (10 minutes after its verification text is due, which may be later than the
// sign-up when the hourly ceiling holds texts back).
// Verification texts are found by send time to count them against that ceiling.
const PENDING_WINDOW_MS = 10 * 60_000;

export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) await rebuildSqliteProfiles(db, '"phone_number" text not null unique', '"phone_number" text not null');
  else await sql`ALTER TABLE profiles DROP CONSTRAINT IF EXISTS profiles_phone_number_key`.execute(db);
  await sql`CREATE UNIQUE INDEX profiles_verified_phone_idx ON profiles (phone_number) WHERE phone_verified = 1`.execute(db);
  await db.schema.createIndex('profiles_phone_idx').on('profiles').column('phone_number').execute();
  await db.schema.alterTable('profiles').addColumn('verification_code', 'text').execute();
  await db.schema.alterTable('profiles').addColumn('verification_expires_at', 'text').execute();
  const pending = await db.selectFrom('profiles').select(['id', 'created_at']).where('phone_verified', '=', 0).execute();
  for (const p of pending) {
    const expires = new Date(Date.parse(p.created_at) + PENDING_WINDOW_MS).toISOString();
    await db.updateTable('profiles').set({ verification_expires_at: expires }).where('id', '=', p.id).execute();
  }
  await sql`CREATE INDEX sms_messages_verification_idx ON sms_messages (send_after) WHERE kind = 'verification'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sms_messages_verification_idx').execute();
  await db.schema.dropIndex('profiles_phone_idx').execute();
  await db.schema.dropIndex('profiles_verified_phone_idx').execute();
  await db.schema.alterTable('profiles').dropColumn('verification_expires_at').execute();
  await db.schema.alterTable('profiles').dropColumn('verification_code').execute();
  if (isSqlite(db)) await rebuildSqliteProfiles(db, '"phone_number" text not null', '"phone_number" text not null unique');
  else await sql`ALTER TABLE profiles ADD CONSTRAINT profiles_phone_number_key UNIQUE (phone_number)`.execute(db);
}

function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/**
 * SQLite cannot drop a column's UNIQUE: the table is rebuilt from its own definition with that
 * column's clause changed (SQLite's documented procedure), keeping every column and index it has.
 * Nothing references profiles, so the copy keeps every foreign key whole.
 */
async function rebuildSqliteProfiles(db: Kysely<any>, column: string, replacement: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const master = await sql<{ type: string; sql: string }>`select type, sql from sqlite_master where tbl_name = 'profiles' and sql is not null`.execute(trx);
    const table = master.rows.find((r) => r.type === 'table')!.sql;
    const indexes = master.rows.filter((r) => r.type === 'index').map((r) => r.sql);
    const rebuilt = table.replace(column, replacement).replace(/^CREATE TABLE "profiles"/, 'CREATE TABLE "profiles_rebuilt"');
    if (!rebuilt.includes(replacement) || !rebuilt.startsWith('CREATE TABLE "profiles_rebuilt"')) {
      throw new Error(`profiles is not as expected: ${table}`);
    }
    await sql.raw(rebuilt).execute(trx);
    await sql`INSERT INTO profiles_rebuilt SELECT * FROM profiles`.execute(trx);
    await sql`DROP TABLE profiles`.execute(trx);
    await sql`ALTER TABLE profiles_rebuilt RENAME TO profiles`.execute(trx);
    for (const index of indexes) await sql.raw(index).execute(trx);
  });
}
