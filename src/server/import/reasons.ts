import { IMPORT_REASONS, type ImportReasonCount } from '../../shared/import';
import { ReasonCounter } from '../../shared/import/reasons';
import type { AppContext } from '../context';

export { entryExample } from '../../shared/import/reasons';

/** Why things were left out (shared/import/reasons.ts), kept with the job encrypted under the owner's key. */
export class ReasonTally extends ReasonCounter {
  /** Encrypted with the owner's key: examples name entries by their titles. */
  encrypt(ctx: AppContext, userId: string, salt: string): string | null {
    return this.counts.size ? ctx.cipher.encrypt(userId, salt, JSON.stringify(this.list())) : null;
  }

  static decrypt(ctx: AppContext, userId: string, salt: string, encrypted: string | null): ReasonTally {
    const tally = new ReasonTally();
    if (!encrypted) return tally;
    for (const item of JSON.parse(ctx.cipher.decrypt(userId, salt, encrypted)) as ImportReasonCount[]) {
      if ((IMPORT_REASONS as readonly string[]).includes(item.reason)) tally.counts.set(item.reason, item);
    }
    return tally;
  }
}
