import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here.
//
// An account has one time zone, `timezone`, for entry dates, exports, text replies and reminders;
// reminders used `reminder_timezone`, which sign-up derived from `timezone` (the zone itself when it
// was one of the seven offered, else Eastern) and which only Settings could change. Where the two
// differ, the one the person chose wins: a reminder zone changed in Settings, or any reminder zone
// beside a zone that names no place (a browser set to UTC). Due times computed in another zone than
// the account's are computed again; the old column is left equal to the zone, and no longer read.
const OFFERED = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Phoenix', 'America/Los_Angeles', 'America/Anchorage', 'Pacific/Honolulu'];
const PLACELESS = ['UTC', 'GMT', 'UCT', 'Universal', 'Zulu', 'Greenwich', 'GMT0'];

export async function up(db: Kysely<any>): Promise<void> {
  const derived = sql`case when timezone in (${sql.join(OFFERED)}) then timezone else 'America/New_York' end`;
  await db
    .updateTable('profiles')
    .set({ timezone: sql.ref('reminder_timezone') })
    .where(sql<boolean>`timezone in (${sql.join(PLACELESS)}) or timezone like 'Etc/%' or reminder_timezone <> ${derived}`)
    .execute();
  await db
    .updateTable('profiles')
    .set({ next_reminder_at: null, next_recap_at: null })
    .where(sql<boolean>`timezone <> reminder_timezone`)
    .execute();
  await db
    .updateTable('profiles')
    .set({ reminder_timezone: sql.ref('timezone') })
    .where(sql<boolean>`timezone <> reminder_timezone`)
    .execute();
}

export async function down(): Promise<void> {
  // The zones chosen before cannot be told apart afterwards; nothing to undo.
}
