import { systemClock, type Clock } from './clock';
import { resolveMasterKey, type Config } from './config';
import type { AppContext } from './context';
import { createTextCipher } from './crypto/encryption';
import { deriveKey } from './crypto/tokens';
import { migrateToLatest, openDatabase, optimizeQueryPlanner, type DatabaseHandle } from './db/database';
import { createLocalEventBus } from './events';
import { createJobWakeups } from './jobs/wakeups';
import { createPgEventBus } from './events/pg-bus';
import { JournalCache } from './journal/cache';
import { checkMasterKeys } from './keys/key-guard';
import { loadStoredHashKey } from './keys/encrypted-secrets';
import { createAppMetrics } from './metrics/app-metrics';
import { createBillingProvider } from './providers/billing/index';
import { createMailSimulator } from './providers/mail/simulator';
import { createSmtpMailer } from './providers/mail/smtp';
import { createSmsSimulator } from './providers/sms/simulator';
import { createTwilioSms } from './providers/sms/twilio';
import { createPhotoStorage } from './providers/storage/index';

export interface ContextOptions {
  /** An open database; by default the one config.databaseUrl names. */
  database?: DatabaseHandle;
  clock?: Clock;
  /** Where the event bus says that its connection dropped and came back (default: standard error). */
  eventsLog?: EventsLog;
}

interface EventsLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const stderrLog: EventsLog = {
  info: () => undefined,
  warn: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`),
};

interface OpenedContext {
  ctx: AppContext;
  /** The database handle the context reads and writes. */
  database: DatabaseHandle;
  /** False when no configured key decrypts the stored key of import fingerprints and UNDO. */
  storedHashKeyDecrypted: boolean;
  /** Closes the event bus's connection, then the database. */
  close(): Promise<void>;
}

/**
 * Everything a service needs, without HTTP: the server builds its app on it, and each CLI command
 * (cli/) uses it alone. Migrates the database first; refuses keys that do not fit it.
 */
export async function createContext(config: Config, options: ContextOptions = {}): Promise<OpenedContext> {
  const database = options.database ?? openDatabase(config.databaseUrl);
  const closeOwn = async () => {
    if (!options.database) await database.close();
  };
  const masterKey = resolveMasterKey(config);
  try {
    await migrateToLatest(database.db);
    await optimizeQueryPlanner(database);
    // Keys that do not fit a key rotation under way (or finished) stop the start (keys/key-guard.ts).
    await checkMasterKeys(database.db, masterKey, config.previousMasterKey);
  } catch (error) {
    await closeOwn();
    throw error;
  }

  const clock = options.clock ?? systemClock;
  const smsSimulator = config.sms.provider === 'simulator' ? createSmsSimulator(config.journalNumber, clock) : undefined;
  const mailSimulator = config.mail.provider === 'simulator' ? createMailSimulator(config.mail.from) : undefined;
  const cipher = createTextCipher(masterKey, config.previousMasterKey);
  const storedHashKey = await loadStoredHashKey({ db: database.db, cipher, masterKey, now: clock.now().toISOString() });
  // On PostgreSQL every context, the server's and the CLI's alike, tells every instance's open pages
  // through LISTEN/NOTIFY; in one SQLite process the events stay in memory.
  const pgBus = database.kind === 'postgres' ? await createPgEventBus({ connectionString: config.databaseUrl, db: database.db, log: options.eventsLog ?? stderrLog }) : undefined;
  const events = pgBus ?? createLocalEventBus();
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    clock,
    cipher,
    events,
    sms: smsSimulator ?? (config.sms.provider === 'twilio' ? createTwilioSms(config.sms) : createSmsSimulator(config.journalNumber, clock)),
    mail: mailSimulator ?? (config.mail.provider === 'smtp' ? createSmtpMailer(config.mail.url, config.mail.from) : createMailSimulator(config.mail.from)),
    storage: createPhotoStorage(config.storage),
    billing: createBillingProvider(config, clock),
    // The cache reads through the context it belongs to.
    journalCache: new JournalCache(() => ctx, config.searchCacheBytes),
    metrics: createAppMetrics(() => ctx),
    simulators: { sms: smsSimulator, mail: mailSimulator },
    keys: { accessToken: deriveKey(masterKey, 'access-token'), links: deriveKey(masterKey, 'links'), storedHashes: storedHashKey.key },
    jobs: createJobWakeups(),
  };
  const close = async () => {
    await pgBus?.close();
    await database.close();
  };
  return { ctx, database, storedHashKeyDecrypted: storedHashKey.decrypted, close };
}
