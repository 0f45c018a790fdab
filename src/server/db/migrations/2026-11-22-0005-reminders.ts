import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable column types only.
export async function up(db: Kysely<any>): Promise<void> {
  // When the next Sunday-evening recap is due (ISO-8601 UTC); null until the reminder pass computes
  // it. Claimed with a compare-and-set update, like next_reminder_at.
  await db.schema.alterTable('profiles').addColumn('next_recap_at', 'text').execute();
  await db.schema.createIndex('profiles_next_recap_idx').on('profiles').column('next_recap_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('profiles_next_recap_idx').execute();
  await db.schema.alterTable('profiles').dropColumn('next_recap_at').execute();
}
