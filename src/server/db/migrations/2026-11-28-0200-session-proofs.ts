import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable types and SQL only.
//
// When the person behind a session last proved it is them (signing in, or their password or a
// passkey again): changing the vault's keys, turning it off and deleting the account need a proof
// from the last five minutes. Sessions from before have none and are asked for one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_sessions').addColumn('proved_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_sessions').dropColumn('proved_at').execute();
}
