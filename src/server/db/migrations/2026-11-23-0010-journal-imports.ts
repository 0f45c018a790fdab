import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable column types only.
export async function up(db: Kysely<any>): Promise<void> {
  // One row per imported entry: a keyed hash of where it came from (a Day One uuid, a jrnl entry's
  // text, an exported entry's id), so importing the same file again adds nothing. Deleting the entry
  // deletes its row, so a later import brings a deleted entry back.
  await db.schema
    .createTable('journal_imports')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'text', (c) => c.notNull().references('journal_entries.id').onDelete('cascade'))
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('journal_imports_pk', ['user_id', 'fingerprint'])
    .execute();
  await db.schema.createIndex('journal_imports_entry_idx').on('journal_imports').column('entry_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('journal_imports').execute();
}
