import { ConfigError } from '../config';
import { masterKeyId } from '../crypto/encryption';
import type { Db } from '../db/database';

/**
 * Refuses to start an instance whose keys do not fit the database's key rotations, before it
 * writes anything or shows an encrypted value raw:
 * - a rotation under way needs both its keys: MASTER_KEY the new one, MASTER_KEY_PREVIOUS the old;
 * - a key a finished rotation retired can no longer decrypt the journal.
 */
export async function checkMasterKeys(db: Db, masterKey: Buffer, previousMasterKey: Buffer | undefined): Promise<void> {
  const current = masterKeyId(masterKey);
  const previous = previousMasterKey ? masterKeyId(previousMasterKey) : null;
  const rotations = await db
    .selectFrom('key_rotations')
    .select(['from_key_id', 'to_key_id', 'finished_at'])
    .where((eb) => eb.or([eb('from_key_id', '=', current), eb('to_key_id', '=', current)]))
    .execute();
  for (const rotation of rotations) {
    const { from_key_id: from, to_key_id: to } = rotation;
    if (rotation.finished_at === null && to === current && previous !== from) {
      throw new ConfigError([
        `MASTER_KEY_PREVIOUS: the rotation from key ${from} to key ${to} (MASTER_KEY) is not finished; set MASTER_KEY_PREVIOUS to the old key until \`jotline keys rotate\` says it can go`,
      ]);
    }
    if (rotation.finished_at === null && from === current) {
      throw new ConfigError([
        `MASTER_KEY: key ${from} is being replaced by key ${to}; start with MASTER_KEY set to the new key and MASTER_KEY_PREVIOUS to this one`,
      ]);
    }
    if (rotation.finished_at !== null && from === current) {
      throw new ConfigError([`MASTER_KEY: key ${from} was retired on ${rotation.finished_at} (everything is now under key ${to}); set MASTER_KEY to the new key`]);
    }
  }
}
