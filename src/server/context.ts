import type { JobWakeups } from './jobs/wakeups';
import type { Clock } from './clock';
import type { Config } from './config';
import type { TextCipher } from './crypto/encryption';
import type { Db, DbKind } from './db/database';
import type { EventBus } from './events';
import type { JournalCache } from './journal/cache';
import type { AppMetrics } from './metrics/app-metrics';
import type { BillingProvider } from './providers/billing/types';
import type { MailSimulator } from './providers/mail/simulator';
import type { Mailer } from './providers/mail/types';
import type { SmsSimulator } from './providers/sms/simulator';
import type { SmsProvider } from './providers/sms/types';
import type { PhotoStorage } from './providers/storage/index';

/** Everything a service needs, built once per app and passed explicitly. */
export interface AppContext {
  config: Config;
  db: Db;
  dbKind: DbKind;
  clock: Clock;
  cipher: TextCipher;
  events: EventBus;
  sms: SmsProvider;
  mail: Mailer;
  /** Photo files, as STORAGE_URL says. */
  storage: PhotoStorage;
  /** Payments: Stripe, or the local simulator (BILLING_PROVIDER). */
  billing: BillingProvider;
  /** Decrypted journals held in memory for search and lists (journal/cache.ts). */
  journalCache: JournalCache;
  /** Present only when the providers are the simulators (development and tests). */
  simulators: { sms?: SmsSimulator; mail?: MailSimulator };
  keys: {
    /** Signs access tokens (HS256). */
    accessToken: Uint8Array;
    /** Signs media URLs and other short-lived links; changes with MASTER_KEY. */
    links: Buffer;
    /**
     * Keys the hashes kept in the database: import fingerprints and UNDO content hashes. Stored
     * encrypted (keys/encrypted-secrets.ts) rather than derived, so it stays the same across key rotations.
     */
    storedHashes: Buffer;
  };
  /** Prometheus counters and gauges served at GET /metrics. */
  metrics: AppMetrics;
  /** Wakes a background job (a queued text goes out now, a recorded one is processed now) rather than at its next tick. */
  jobs: JobWakeups;
}
