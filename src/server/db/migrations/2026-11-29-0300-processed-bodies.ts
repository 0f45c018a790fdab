import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable types and SQL only.
//
// An inbound text's body and media links are read only while it is processed. Texts processed
// before this kept theirs unless they were journaled (commands, texts from numbers no one had
// verified, keywords); they go now, as every processed text's do from here on.
export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('sms_messages').set({ body: null, media: null }).where('direction', '=', 'inbound').where('processed', '=', 1).where((eb) => eb.or([eb('body', 'is not', null), eb('media', 'is not', null)])).execute();
}

export async function down(): Promise<void> {
  // What was dropped cannot come back.
}
