import type { Kysely } from 'kysely';

// Frozen: never import application code here.
//
// Rate-limit hits older than a day are deleted. The delete went through every hit kept (the only
// index leads with the key), and ran on a random one hit in fifty, inside a sign-up or sign-in
// request. It runs as a background job now (jobs/definitions.ts), and this index finds the old hits
// without reading the rest.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('rate_limit_hits_created_idx').on('rate_limit_hits').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('rate_limit_hits_created_idx').execute();
}
