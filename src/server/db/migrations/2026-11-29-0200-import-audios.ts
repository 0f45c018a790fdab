import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable types and SQL only.
//
// An import chunk's voice recordings are added after its entries are committed (each is decoded
// first, outside any transaction). `audios_from` is where that chunk began while they are being
// added, null once they are: a restart reads the file from there, adds what those entries lack,
// and goes on from `position`.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('import_jobs').addColumn('audios_from', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('import_jobs').dropColumn('audios_from').execute();
}
