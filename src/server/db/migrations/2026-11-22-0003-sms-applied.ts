import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable column types only.
export async function up(db: Kysely<any>): Promise<void> {
  // Which inbound texts (sms_messages.id) a journal already holds, written in the same transaction
  // as the append: a text processed again after a crash finds its row and is not appended twice.
  await db.schema
    .createTable('journal_sms_applied')
    .addColumn('message_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // No reference to the entry: deleting the entry must not let the same text come back.
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addColumn('entry_date', 'text', (c) => c.notNull())
    .addColumn('applied_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('journal_sms_applied_user_idx').on('journal_sms_applied').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('journal_sms_applied').execute();
}
