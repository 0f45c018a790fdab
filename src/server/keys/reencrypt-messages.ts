import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import type { RotationCounts } from './reencrypt-journal';
import { reencryptValue } from './reencrypt-value';

/**
 * Re-encrypts one batch of stored message bodies (encrypted with the system key) after `after`, in id
 * order, in one transaction. Returns the last id looked at, or null when there are no more.
 */
export async function reencryptMessageBatch(ctx: AppContext, after: string, batchSize: number, counts: RotationCounts): Promise<string | null> {
  return ctx.db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('sms_messages')
      .select(['id', 'body'])
      .where('id', '>', after)
      .where('body', 'like', 'ENC:%')
      .orderBy('id')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return null;
    for (const row of rows) {
      const result = reencryptValue(ctx.cipher, SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, row.body);
      if (result.kind === 'unreadable') counts.unreadable += 1;
      if (result.kind !== 'reencrypted') continue;
      // A body cleared or changed meanwhile is left to whoever changed it.
      const updated = await trx.updateTable('sms_messages').set({ body: result.value }).where('id', '=', row.id).where('body', '=', row.body).executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) counts.messages += 1;
    }
    return rows.at(-1)!.id;
  });
}
