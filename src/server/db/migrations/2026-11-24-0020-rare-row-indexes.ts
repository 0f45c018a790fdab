import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here. Portable SQL only (SQLite and PostgreSQL both have
// partial indexes).
//
// Two lookups that went through every row of a growing table, each indexed now over only the few
// rows it looks for:
// - A text from a number without an account asks whether that number's last keyword was STOP. The
//   query took the index on `direction` and walked every inbound text ever received. Keyword texts
//   are few: this index holds only them, by number, newest last.
// - The minute job that removes lapsed sign-ups read every user to find the unverified ones.
//   Unverified profiles are a handful at any time: this index holds only them.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX sms_messages_opt_choice_idx ON sms_messages (from_number, created_at) WHERE kind IN ('opt_out', 'opt_in')`.execute(db);
  await sql`CREATE INDEX profiles_unverified_idx ON profiles (id) WHERE phone_verified = 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('profiles_unverified_idx').execute();
  await db.schema.dropIndex('sms_messages_opt_choice_idx').execute();
}
