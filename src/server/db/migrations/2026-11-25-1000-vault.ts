import type { Kysely } from 'kysely';

// Frozen: never import application code here. Portable column types only.
//
// The Vault (docs/vault.md): a user's journal sealed to their own public key. `vaults` holds the
// public key, the private key wrapped in the browser (opaque here) and where turning it on or off
// stands. `journal_entries.sealed` holds an entry's sealed segments (a JSON list of base64 sealed
// boxes); null for an entry the server can read. `vault_stale_files` lists photo files replaced by
// a sealed (or opened) copy and not yet deleted, so a crash between the two never leaves a readable
// copy behind.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vaults')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('wrapped_keys', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('journal_entries').addColumn('sealed', 'text').execute();
  await db.schema
    .createTable('vault_stale_files')
    .addColumn('storage_key', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('vault_stale_files_user_idx').on('vault_stale_files').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('vault_stale_files').execute();
  await db.schema.alterTable('journal_entries').dropColumn('sealed').execute();
  await db.schema.dropTable('vaults').execute();
}
