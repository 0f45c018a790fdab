import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here. Portable SQL only.
//
// Outbound texts that neither lose nor double, paced for carriers, and not kept at Twilio:
// - `priority` puts replies someone is waiting for ahead of a backlog of scheduled texts, and
//   `send_after` now holds a scheduled text's due time, so reminders go out in the order they fell due;
// - `expires_at`: after it the text is pointless (a reminder hours late, a lapsed link) and is dropped;
// - `unconfirmed_since`: a request for the text may have reached the provider then without our hearing
//   its answer; the provider is asked before the text is sent again;
// - `redacted_at`, `redact_after`, `redact_attempts`: the redaction of the provider's copy, done
//   by a job under a lease (`redact_after`), retried with backoff;
// - `sms_send_budget`: one row holding the next free send slot, shared by every instance.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sms_messages')
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  for (const column of ['expires_at', 'unconfirmed_since', 'redacted_at', 'redact_after']) {
    await db.schema.alterTable('sms_messages').addColumn(column, 'text').execute();
  }
  await db.schema
    .alterTable('sms_messages')
    .addColumn('redact_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE sms_messages SET send_after = created_at WHERE direction = 'outbound' AND send_after IS NULL`.execute(db);
  // Only the texts waiting to go out, in the order they are sent.
  await sql`CREATE INDEX sms_messages_outbound_due_idx ON sms_messages (direction, status, priority, send_after) WHERE direction = 'outbound' AND status = 'pending'`.execute(db);
  // Only the texts whose copy at the provider is still to be redacted.
  await sql`CREATE INDEX sms_messages_redact_idx ON sms_messages (redact_after) WHERE redacted_at IS NULL AND (processed = 1 OR redact_after IS NOT NULL)`.execute(db);

  await db.schema
    .createTable('sms_send_budget')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Microseconds since the epoch.
    .addColumn('next_free_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('sms_send_budget').values({ id: 'sms', next_free_at: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sms_send_budget').execute();
  await db.schema.dropIndex('sms_messages_redact_idx').execute();
  await db.schema.dropIndex('sms_messages_outbound_due_idx').execute();
  for (const column of ['redact_attempts', 'redact_after', 'redacted_at', 'unconfirmed_since', 'expires_at', 'priority']) {
    await db.schema.alterTable('sms_messages').dropColumn(column).execute();
  }
}
