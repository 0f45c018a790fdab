import type { Kysely } from 'kysely';

// Frozen: never import application code here.
//
// One row per master key rotation (`jotline keys rotate`): which key is replaced by which, and how
// far the resealing got, so an interrupted run resumes and instances can tell a key that was retired.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('key_rotations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('from_key_id', 'text', (c) => c.notNull())
    .addColumn('to_key_id', 'text', (c) => c.notNull())
    .addColumn('users_done_through', 'text')
    .addColumn('messages_done_through', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('key_rotations').execute();
}
