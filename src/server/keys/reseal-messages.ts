import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import type { RotationCounts } from './reseal-journal';
import { resealValue } from './reseal-value';

/**
 * Reseals one batch of stored message bodies (sealed with the system key) after `after`, in id
 * order, in one transaction. Returns the last id looked at, or null when there are no more.
 */
export async function resealMessageBatch(ctx: AppContext, after: string, batchSize: number, counts: RotationCounts): Promise<string | null> {
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
      const result = resealValue(ctx.cipher, SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, row.body);
      if (result.kind === 'unreadable') counts.unreadable += 1;
      if (result.kind !== 'resealed') continue;
      // A body cleared or changed meanwhile is left to whoever changed it.
      const updated = await trx.updateTable('sms_messages').set({ body: result.value }).where('id', '=', row.id).where('body', '=', row.body).executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) counts.messages += 1;
    }
    return rows.at(-1)!.id;
  });
}
