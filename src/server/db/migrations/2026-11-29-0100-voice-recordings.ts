import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable types and SQL only.
//
// Voice recordings (a call, an MMS voice note, one recorded or uploaded on the web, an import): the
// audio is kept in storage, encrypted like a photo (or sealed to the user's vault), and attached to
// an entry. `source_key` names where a recording came from (a call's RecordingSid, an MMS's
// MessageSid and media index) so a redelivery adds nothing. The transcript is encrypted like entry
// text, or sealed for a vault user; the transcription job claims pending rows under a lease
// (`transcribe_claimed_at`) and retries at `transcribe_next_at`.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('journal_recordings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('entry_id', 'text', (c) => c.notNull().references('journal_entries.id').onDelete('cascade'))
    .addColumn('file_path', 'text', (c) => c.notNull().unique())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('duration_seconds', 'real', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    // 1: the audio and transcript are sealed to the user's vault (the server cannot open them).
    .addColumn('sealed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source_key', 'text')
    .addColumn('transcript', 'text')
    .addColumn('transcript_status', 'text', (c) => c.notNull())
    .addColumn('transcribe_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('transcribe_next_at', 'text')
    .addColumn('transcribe_claimed_at', 'text')
    .addColumn('transcribe_error', 'text')
    // Order within the entry, as added (oldest first).
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('journal_recordings_source_idx').on('journal_recordings').columns(['user_id', 'source_key']).unique().execute();
  await db.schema.createIndex('journal_recordings_entry_idx').on('journal_recordings').columns(['user_id', 'entry_id']).execute();
  await db.schema.createIndex('journal_recordings_entry_fk_idx').on('journal_recordings').column('entry_id').execute();
  await db.schema.createIndex('journal_recordings_pending_idx').on('journal_recordings').columns(['transcript_status', 'transcribe_next_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('journal_recordings').execute();
}
