import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable column types only.
export async function up(db: Kysely<any>): Promise<void> {
  // Every billing webhook event handled, so a redelivered event is acknowledged and ignored.
  await db.schema
    .createTable('billing_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider_event_id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text')
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('billing_events').execute();
}
