import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here. Portable types and SQL only.
//
// An import is a job: the upload is kept (sealed, in parts) in the photo store and worked through in
// the background, committed in chunks; `position` is how many of the file's entries are done, so a
// restart goes on from there. At most one import a user is waiting or running (the partial index).
// Entries keep the time zone their time is shown in (`time_zone`, IANA); null follows the account's.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('file_bytes', 'integer', (c) => c.notNull())
    .addColumn('file_parts', 'integer', (c) => c.notNull())
    .addColumn('format', 'text')
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imported', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('photos_imported', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('photos_skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reasons', 'text')
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('import_jobs_user_idx').on('import_jobs').columns(['user_id', 'created_at']).execute();
  await sql`CREATE UNIQUE INDEX import_jobs_one_active_idx ON import_jobs (user_id) WHERE status IN ('queued', 'running')`.execute(db);
  await sql`CREATE INDEX import_jobs_active_idx ON import_jobs (created_at) WHERE status IN ('queued', 'running')`.execute(db);
  await db.schema.alterTable('journal_entries').addColumn('time_zone', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('journal_entries').dropColumn('time_zone').execute();
  await db.schema.dropTable('import_jobs').execute();
}
