import type { ControlledTransaction } from 'kysely';
import type { AppContext } from '../context';
import { createJobWakeups } from '../jobs/wakeups';
import type { Db } from '../db/database';
import type { Database } from '../db/tables';
import { JournalCache } from '../journal/cache';
import { BillingProviderError, type BillingProvider } from '../providers/billing/types';

/** Room for the one journal a rehearsal reads. */
const REHEARSAL_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * Runs `work` with a context whose every statement goes into one transaction that is rolled back
 * at the end, whatever happens: the rules run for real and nothing they write remains. Nothing
 * leaves the process either: no events to open pages, no wake-up for the outbound sender, a
 * journal cache of its own, and no billing provider (the transaction holds the database, on SQLite
 * its only connection, so nothing may wait on the network meanwhile).
 */
export async function rehearse<T>(ctx: AppContext, work: (dry: AppContext) => Promise<T>): Promise<T> {
  const trx = await ctx.db.startTransaction().execute();
  try {
    const dry: AppContext = {
      ...ctx,
      db: withSavepoints(trx),
      events: { publish: () => {}, subscribe: () => () => {} },
      jobs: createJobWakeups(),
      billing: offlineBilling(ctx.billing.kind),
      simulators: {},
      journalCache: new JournalCache(() => dry, REHEARSAL_CACHE_BYTES),
    };
    return await work(dry);
  } finally {
    await trx.rollback().execute();
  }
}

/**
 * The transaction as a database handle whose own transactions (the journal's, for one) become
 * savepoints inside it: Kysely refuses a transaction within a transaction.
 */
function withSavepoints(trx: ControlledTransaction<Database>): Db {
  // Savepoint names are dynamic here, which the typed savepoint API cannot follow.
  const savepoints = trx as unknown as ControlledTransaction<Database, string[]>;
  let count = 0;
  const nested = {
    async execute<T>(run: (db: Db) => Promise<T>): Promise<T> {
      const name = `rehearsal_${++count}`;
      await savepoints.savepoint(name).execute();
      try {
        const result = await run(db);
        await savepoints.releaseSavepoint(name).execute();
        return result;
      } catch (error) {
        await savepoints.rollbackToSavepoint(name).execute();
        throw error;
      }
    },
  };
  const db: Db = new Proxy(trx, {
    get(target, property) {
      if (property === 'transaction') return () => nested;
      // Kysely keeps its state in private fields: its methods must run on the transaction itself.
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as unknown as Db;
  return db;
}

function offlineBilling(kind: BillingProvider['kind']): BillingProvider {
  const offline = async (): Promise<never> => {
    throw new BillingProviderError('The billing provider is not asked during a rehearsal');
  };
  return {
    kind,
    createCustomer: offline,
    getCustomer: offline,
    createCheckoutSession: offline,
    getCheckoutSession: offline,
    expireOpenCheckoutSessions: offline,
    createPortalSession: offline,
    listSubscriptions: offline,
    cancelSubscriptionNow: offline,
    verifyWebhook: () => {
      throw new BillingProviderError('The billing provider is not asked during a rehearsal');
    },
  };
}
