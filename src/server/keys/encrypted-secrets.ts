import type { AppContext } from '../context';
import { SECRETS_SUBJECT, type TextCipher } from '../crypto/encryption';
import { deriveKey } from '../crypto/tokens';
import type { Db } from '../db/database';
import type { RotationCounts } from './reencrypt-journal';
import { reencryptValue } from './reencrypt-value';

/** The encrypted secret that keys the hashes kept in the database. */
export const STORED_HASHES_SECRET = 'stored-hashes';

interface StoredHashKey {
  key: Buffer;
  /**
   * False when neither MASTER_KEY nor MASTER_KEY_PREVIOUS decrypts the stored secret (a key that is not
   * this database's): `key` is then MASTER_KEY's `links` key, as before the secret was stored.
   */
  decrypted: boolean;
}

const encryptSecret = (cipher: TextCipher, key: Buffer) => cipher.encrypt(SECRETS_SUBJECT.id, SECRETS_SUBJECT.salt, key.toString('base64'));

async function storedValue(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom('sealed_secrets').select('value').where('name', '=', STORED_HASHES_SECRET).executeTakeFirst();
  return row?.value;
}

/**
 * The key of the hashes kept in the database (import fingerprints, UNDO content hashes), which must
 * not change when the master key does: made on first start and kept encrypted under the master key.
 * Its first value is the key those hashes were made with until now, MASTER_KEY's `links` key, so
 * every stored hash still matches. Instances starting at once each insert it if absent and all read
 * back the one that went in.
 */
export async function loadStoredHashKey(input: { db: Db; cipher: TextCipher; masterKey: Buffer; now: string }): Promise<StoredHashKey> {
  const { db, cipher, masterKey, now } = input;
  const links = deriveKey(masterKey, 'links');
  let value = await storedValue(db);
  if (value === undefined) {
    await db
      .insertInto('sealed_secrets')
      .values({ name: STORED_HASHES_SECRET, value: encryptSecret(cipher, links), created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    value = await storedValue(db);
  }
  try {
    return { key: Buffer.from(cipher.decryptStrict(SECRETS_SUBJECT.id, SECRETS_SUBJECT.salt, value!), 'base64'), decrypted: true };
  } catch {
    return { key: links, decrypted: false };
  }
}

/**
 * Re-encrypts every stored secret under MASTER_KEY (a handful of rows, and the TOTP secrets). A secret already under it is left
 * alone, so a resumed rotation does this again at no cost; a value changed meanwhile is left to
 * whoever changed it.
 */
export async function reencryptSecrets(ctx: AppContext, counts: RotationCounts): Promise<void> {
  const rows = await ctx.db.selectFrom('sealed_secrets').select(['name', 'value']).execute();
  for (const row of rows) {
    const result = reencryptValue(ctx.cipher, SECRETS_SUBJECT.id, SECRETS_SUBJECT.salt, row.value);
    if (result.kind === 'unreadable') counts.unreadable += 1;
    if (result.kind !== 'reencrypted') continue;
    const updated = await ctx.db
      .updateTable('sealed_secrets')
      .set({ value: result.value, updated_at: ctx.clock.now().toISOString() })
      .where('name', '=', row.name)
      .where('value', '=', row.value)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) counts.secrets += 1;
  }
  // The authenticator-app secrets of two-step verification are encrypted the same way.
  const factors = await ctx.db.selectFrom('totp_factors').select(['user_id', 'secret']).execute();
  for (const factor of factors) {
    const result = reencryptValue(ctx.cipher, SECRETS_SUBJECT.id, SECRETS_SUBJECT.salt, factor.secret);
    if (result.kind === 'unreadable') counts.unreadable += 1;
    if (result.kind !== 'reencrypted') continue;
    const updated = await ctx.db
      .updateTable('totp_factors')
      .set({ secret: result.value })
      .where('user_id', '=', factor.user_id)
      .where('secret', '=', factor.secret)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) counts.secrets += 1;
  }
}
