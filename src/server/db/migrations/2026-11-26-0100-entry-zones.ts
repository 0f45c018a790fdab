import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here.
//
// Every entry carries the IANA zone its time is shown in. Imports always wrote it; web and text entries
// left it null, meaning the account's zone, so an entry written before a move followed the account to
// its new zone. From now on they keep the account's zone as they are written; earlier ones take the
// account's zone today, which is what they showed until now.
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('journal_entries')
    .set({ time_zone: sql`(select profiles.timezone from profiles where profiles.id = journal_entries.user_id)` })
    .where('time_zone', 'is', null)
    .execute();
}

export async function down(): Promise<void> {
  // Which zones were filled in here cannot be told apart afterwards; nothing to undo.
}
