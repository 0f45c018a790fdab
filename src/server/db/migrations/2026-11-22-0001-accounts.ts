import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable column types only.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('profiles')
    .addColumn('id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('phone_number', 'text', (c) => c.notNull().unique())
    .addColumn('phone_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('is_opted_out', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reminder_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('reminder_time', 'text', (c) => c.notNull().defaultTo('20:00'))
    .addColumn('reminder_timezone', 'text', (c) => c.notNull().defaultTo('America/New_York'))
    .addColumn('weekly_recap_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('prompts_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('next_reminder_at', 'text')
    .addColumn('key_salt', 'text', (c) => c.notNull())
    .addColumn('sms_consent_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('profiles_next_reminder_idx').on('profiles').column('next_reminder_at').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('rotated_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refresh_tokens_family_idx').on('refresh_tokens').column('family_id').execute();
  await db.schema.createIndex('refresh_tokens_user_idx').on('refresh_tokens').column('user_id').execute();

  await db.schema
    .createTable('one_time_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('one_time_tokens_user_idx').on('one_time_tokens').columns(['user_id', 'purpose']).execute();

  await db.schema
    .createTable('sms_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('provider_message_id', 'text', (c) => c.unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('from_number', 'text', (c) => c.notNull())
    .addColumn('to_number', 'text', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('media', 'text')
    .addColumn('segments', 'integer')
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('processing_ms', 'integer')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('entry_id', 'text')
    .addColumn('entry_date', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_at', 'text')
    .addColumn('send_after', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sms_messages_user_idx').on('sms_messages').columns(['user_id', 'entry_date']).execute();
  await db.schema.createIndex('sms_messages_queue_idx').on('sms_messages').columns(['direction', 'status', 'send_after']).execute();
  await db.schema.createIndex('sms_messages_created_idx').on('sms_messages').column('created_at').execute();

  await db.schema
    .createTable('security_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('identifier', 'text')
    .addColumn('details', 'text')
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('security_events_created_idx').on('security_events').column('created_at').execute();

  await db.schema
    .createTable('subscribers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('is_trial', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('trial_end', 'text')
    .addColumn('subscribed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('subscription_tier', 'text')
    .addColumn('subscription_end', 'text')
    .addColumn('subscription_status', 'text')
    .addColumn('provider_customer_id', 'text', (c) => c.unique())
    .addColumn('provider_subscription_id', 'text')
    .addColumn('subscribed_at', 'text')
    .addColumn('cancelled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_hits_key_idx').on('rate_limit_hits').columns(['key', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['rate_limit_hits', 'subscribers', 'security_events', 'sms_messages', 'one_time_tokens', 'refresh_tokens', 'profiles', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
