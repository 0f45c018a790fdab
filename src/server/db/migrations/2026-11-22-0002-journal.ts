import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here. Portable column types only.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('journal_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // content, title and tags (a JSON list) are encrypted: ENC:…
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('entry_date', 'text', (c) => c.notNull())
    .addColumn('word_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('journal_entries_user_created_idx').on('journal_entries').columns(['user_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('journal_entries_user_date_idx').on('journal_entries').columns(['user_id', 'entry_date']).execute();
  // One SMS entry per user per local day, even when two texts arrive at once.
  await db.schema
    .createIndex('journal_entries_sms_day_idx')
    .on('journal_entries')
    .columns(['user_id', 'entry_date'])
    .unique()
    .where(sql.ref('source'), '=', 'sms')
    .execute();

  await db.schema
    .createTable('journal_photos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('entry_id', 'text', (c) => c.notNull().references('journal_entries.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_path', 'text', (c) => c.notNull().unique())
    .addColumn('thumb_path', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    // Order within the entry, as added.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('journal_photos_entry_idx').on('journal_photos').column('entry_id').execute();
  await db.schema.createIndex('journal_photos_user_idx').on('journal_photos').column('user_id').execute();

  // Bumped in the same transaction as every journal change, so any instance can tell in one
  // lookup whether its in-memory copy of a journal is current.
  await db.schema
    .createTable('journal_revisions')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['journal_revisions', 'journal_photos', 'journal_entries']) {
    await db.schema.dropTable(table).execute();
  }
}
