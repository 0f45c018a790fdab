import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable column types only.
export async function up(db: Kysely<any>): Promise<void> {
  // Short-lived, single-use tickets that open the realtime stream, so no access token sits in a URL.
  await db.schema
    .createTable('event_tickets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_family', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_tickets_expires_idx').on('event_tickets').column('expires_at').execute();
  await db.schema.createIndex('event_tickets_user_idx').on('event_tickets').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_tickets').execute();
}
