import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here. Portable column types only.
export async function up(db: Kysely<any>): Promise<void> {
  // A day's texts fill one SMS entry up to the 10,000-character limit, then continue in the next
  // part: 0 is the day's first SMS entry, 1 its first continuation, and so on.
  await db.schema.alterTable('journal_entries').addColumn('sms_part', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.dropIndex('journal_entries_sms_day_idx').execute();
  // Still one entry per part, even when two texts arrive at once.
  await db.schema
    .createIndex('journal_entries_sms_day_part_idx')
    .on('journal_entries')
    .columns(['user_id', 'entry_date', 'sms_part'])
    .unique()
    .where(sql.ref('source'), '=', 'sms')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Continuations hold texts; going back would have to drop them, so it is refused instead.
  const continued = await db.selectFrom('journal_entries').select('id').where('source', '=', 'sms').where('sms_part', '>', 0).executeTakeFirst();
  if (continued) throw new Error('SMS continuation entries exist; merge them before going back');
  await db.schema.dropIndex('journal_entries_sms_day_part_idx').execute();
  await db.schema
    .createIndex('journal_entries_sms_day_idx')
    .on('journal_entries')
    .columns(['user_id', 'entry_date'])
    .unique()
    .where(sql.ref('source'), '=', 'sms')
    .execute();
  await db.schema.alterTable('journal_entries').dropColumn('sms_part').execute();
}
