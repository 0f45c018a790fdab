import type { Kysely } from 'kysely';

// Frozen: never import application code here.
//
// UNDO of a text in a Vault entry removes its sealed segment without reading it; the entry's word
// count must go back too, and the server cannot count the words that are left. The record keeps the
// entry's word count before the text (null for records of readable entries, which count again).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('journal_sms_undo').addColumn('words_before', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('journal_sms_undo').dropColumn('words_before').execute();
}
