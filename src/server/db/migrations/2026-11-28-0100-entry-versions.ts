import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable types and SQL only.
//
// Every entry carries a version that every write to it raises, texts included: a web save names the
// version it was based on and is refused when the entry changed since, so a text that arrived while
// the editor was open is never overwritten. A new entry's `Idempotency-Key` is kept for 24 hours, so
// a retried or doubled save answers the entry the first one made; the key goes with its entry.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('journal_entries').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema
    .createTable('entry_idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'text', (c) => c.notNull().references('journal_entries.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('entry_idempotency_keys_pk', ['user_id', 'key'])
    .execute();
  await db.schema.createIndex('entry_idempotency_keys_created_idx').on('entry_idempotency_keys').column('created_at').execute();
  await db.schema.createIndex('entry_idempotency_keys_entry_idx').on('entry_idempotency_keys').column('entry_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('entry_idempotency_keys').execute();
  await db.schema.alterTable('journal_entries').dropColumn('version').execute();
}
