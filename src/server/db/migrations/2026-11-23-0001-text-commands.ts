import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable column types only.
export async function up(db: Kysely<any>): Promise<void> {
  // PAUSE: no automated texts until this instant (ISO-8601); null when texts are not paused.
  await db.schema.alterTable('profiles').addColumn('paused_until', 'text').execute();

  // UNDO: what each journaled text added, so the last one can be taken out again. No journal text
  // here: the entry's length before the text and a keyed hash of its content after it, so UNDO can
  // tell whether the entry was edited since.
  await db.schema
    .createTable('journal_sms_undo')
    .addColumn('message_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The local day the text arrived on: UNDO takes out texts of today only.
    .addColumn('received_on', 'text', (c) => c.notNull())
    // The entry the text ended in, and its content's length before the text (0 when the text made it).
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addColumn('length_before', 'integer', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    // JSON arrays of ids: entries the text started (continuations included) and photos it added.
    .addColumn('created_entry_ids', 'text', (c) => c.notNull())
    .addColumn('photo_ids', 'text', (c) => c.notNull())
    .addColumn('applied_at', 'text', (c) => c.notNull())
    // The journal's revision the text made: orders one user's texts even within a millisecond.
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('undone_at', 'text')
    // The UNDO text (sms_messages.id) that took it out: an UNDO processed twice takes out one text.
    .addColumn('undone_by', 'text')
    .execute();
  await db.schema.createIndex('journal_sms_undo_user_day_idx').on('journal_sms_undo').columns(['user_id', 'received_on', 'revision']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('journal_sms_undo').execute();
  await db.schema.alterTable('profiles').dropColumn('paused_until').execute();
}
