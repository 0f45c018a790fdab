import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here. Portable SQL only (SQLite and PostgreSQL both have
// partial indexes).
//
// The reminder pass asks, every minute, "whose reminder or recap is due?" and "who has none
// scheduled yet?". Partial indexes hold only the profiles that want the text, so with a million
// profiles and none due the pass reads an empty range instead of every profile whose texts are off.
const indexes = [
  ['profiles_reminder_due_idx', 'next_reminder_at', 'reminder_enabled = 1 AND phone_verified = 1 AND is_opted_out = 0'],
  ['profiles_recap_due_idx', 'next_recap_at', 'weekly_recap_enabled = 1 AND phone_verified = 1 AND is_opted_out = 0'],
  ['profiles_reminder_unscheduled_idx', 'id', 'next_reminder_at IS NULL AND reminder_enabled = 1 AND phone_verified = 1 AND is_opted_out = 0'],
  ['profiles_recap_unscheduled_idx', 'id', 'next_recap_at IS NULL AND weekly_recap_enabled = 1 AND phone_verified = 1 AND is_opted_out = 0'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, column, where] of indexes) {
    await sql`CREATE INDEX ${sql.id(name)} ON profiles (${sql.id(column)}) WHERE ${sql.raw(where)}`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of indexes) await db.schema.dropIndex(name).execute();
}
