import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here. Portable types and SQL only.
//
// A phone call to the journal number, by Twilio's CallSid (a redelivered webhook is the same call),
// with its caller's account, the caller's local day (calls a day are counted by it) and, once
// Twilio reports it, its recording: the download job claims a row by `claimed_at` (a lease), waits
// out `next_at` between tries, and ends it with `done_at`. The number is kept as the texts keep it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('voice_calls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('call_sid', 'text', (c) => c.notNull().unique())
    .addColumn('account_sid', 'text')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('from_number', 'text', (c) => c.notNull())
    .addColumn('local_date', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('recording_sid', 'text', (c) => c.unique())
    .addColumn('recording_url', 'text')
    .addColumn('recording_status', 'text')
    .addColumn('recording_duration', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_at', 'text')
    .addColumn('claimed_at', 'text')
    .addColumn('done_at', 'text')
    .addColumn('error', 'text')
    .addColumn('recording_received_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('voice_calls_user_day_idx').on('voice_calls').columns(['user_id', 'local_date']).execute();
  await sql`CREATE INDEX voice_calls_due_idx ON voice_calls (next_at) WHERE status IN ('download', 'delete')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('voice_calls').execute();
}
