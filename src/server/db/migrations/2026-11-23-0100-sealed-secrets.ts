import type { Kysely } from 'kysely';

// Frozen: never import application code here.
//
// Secrets the service keeps in the database rather than derives from MASTER_KEY, so they outlive a
// key rotation: each value is sealed under the master key and names its key id (`ENC:` + id + `:`…),
// and `jotline keys rotate` reseals them like the journal.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sealed_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sealed_secrets').execute();
}
