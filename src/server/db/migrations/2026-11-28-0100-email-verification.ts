import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here.
//
// An account's e-mail address is verified by a link sent at sign-up; reset mails go only to a
// verified address. Accounts made before verification existed have used their address for resets
// already: they count as verified from their sign-up, rather than locked out of recovery.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();
  await db.updateTable('users').set({ email_verified_at: sql`created_at` }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}
