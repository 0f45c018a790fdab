import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable column types only.
export async function up(db: Kysely<any>): Promise<void> {
  // The daily reminder mentions an entry from this day in earlier years (with a sign-in link, never
  // the entry's text). On by default.
  await db.schema
    .alterTable('profiles')
    .addColumn('on_this_day_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('on_this_day_enabled').execute();
}
