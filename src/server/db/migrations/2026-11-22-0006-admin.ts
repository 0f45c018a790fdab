import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable column types only.
export async function up(db: Kysely<any>): Promise<void> {
  // One row per admin SMS test. The phone is stored masked and the content only as a short preview.
  await db.schema
    .createTable('sms_test_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('test_type', 'text', (c) => c.notNull())
    .addColumn('phone_number', 'text', (c) => c.notNull())
    .addColumn('message_content', 'text', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('webhook_status', 'text')
    .addColumn('webhook_response', 'text')
    .addColumn('payload', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sms_test_logs_created_idx').on('sms_test_logs').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sms_test_logs_created_idx').execute();
  await db.schema.dropTable('sms_test_logs').execute();
}
