import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { accountDeletionRoutes } from './account-deletion/routes';
import { adminRoutes } from './admin/routes';
import { authRoutes } from './auth/routes';
import { billingRoutes } from './billing/billing-routes';
import { subscriptionRoutes } from './billing/routes';
import { stripeWebhookRoutes } from './billing/webhook-routes';
import { systemClock, type Clock } from './clock';
import { registerCompression } from './compression/index';
import { resolveMasterKey, type Config } from './config';
import type { AppContext } from './context';
import { createTextCipher, SYSTEM_SUBJECT } from './crypto/encryption';
import { deriveKey } from './crypto/tokens';
import { migrateToLatest, openDatabase, optimizeQueryPlanner, type DatabaseHandle } from './db/database';
import { devRoutes } from './dev/index';
import { createLocalEventBus } from './events';
import { createPgEventBus } from './events/pg-bus';
import { registerErrorHandler } from './http/error-handler';
import { registerNoStoreForApi } from './http/no-store';
import { importRoutes } from './import/routes';
import { registerJobs } from './jobs/index';
import { JournalCache } from './journal/cache';
import { checkMasterKeys } from './keys/key-guard';
import { loadStoredHashKey } from './keys/sealed-secrets';
import { createLogger } from './logging/logger';
import { createAppMetrics } from './metrics/app-metrics';
import { registerMetrics } from './metrics/routes';
import { journalPlugins } from './journal/plugin';
import { onThisDayRoutes } from './on-this-day/routes';
import { createBillingProvider } from './providers/billing/index';
import { createMailSimulator } from './providers/mail/simulator';
import { createSmtpMailer } from './providers/mail/smtp';
import { createSmsSimulator } from './providers/sms/simulator';
import { createTwilioSms } from './providers/sms/twilio';
import { createPhotoStorage } from './providers/storage/index';
import { profileRoutes } from './profile/routes';
import { registerSecurityHeaders } from './security/headers';
import { socketTimeouts } from './security/socket-timeouts';
import { smsWebhookRoutes } from './sms/routes';
import { vaultRoutes } from './vault/routes';
import { webRoutes } from './web';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export interface BuildOptions {
  /** An open database; by default the one config.databaseUrl names. */
  database?: DatabaseHandle;
  clock?: Clock;
  /** Serve the built web app (off in API tests). */
  serveWeb?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logDestination?: DestinationStream;
  /** Where the built web app is (default dist/web). */
  webRoot?: string;
}

/** Builds the whole product as one Fastify instance. `main.ts` only listens. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const database = options.database ?? openDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  await optimizeQueryPlanner(database);
  const masterKey = resolveMasterKey(config);
  // Keys that do not fit a key rotation under way (or finished) stop the start (keys/key-guard.ts).
  await checkMasterKeys(database.db, masterKey, config.previousMasterKey).catch(async (error: unknown) => {
    if (!options.database) await database.close();
    throw error;
  });

  const smsSimulator = config.sms.provider === 'simulator' ? createSmsSimulator(config.journalNumber) : undefined;
  const mailSimulator = config.mail.provider === 'simulator' ? createMailSimulator(config.mail.from) : undefined;
  const clock = options.clock ?? systemClock;
  const cipher = createTextCipher(masterKey, config.previousMasterKey);
  const storedHashKey = await loadStoredHashKey({ db: database.db, cipher, masterKey, now: clock.now().toISOString() });
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    clock,
    cipher,
    events: createLocalEventBus(),
    sms: smsSimulator ?? (config.sms.provider === 'twilio' ? createTwilioSms(config.sms) : createSmsSimulator(config.journalNumber)),
    mail: mailSimulator ?? (config.mail.provider === 'smtp' ? createSmtpMailer(config.mail.url, config.mail.from) : createMailSimulator(config.mail.from)),
    storage: createPhotoStorage(config.storage),
    billing: createBillingProvider(config, clock),
    // The cache reads through the context it belongs to.
    journalCache: new JournalCache(() => ctx, config.searchCacheBytes),
    metrics: createAppMetrics(() => ctx),
    simulators: { sms: smsSimulator, mail: mailSimulator },
    keys: { accessToken: deriveKey(masterKey, 'access-token'), links: deriveKey(masterKey, 'links'), storedHashes: storedHashKey.key },
    outbox: { kick: () => {} },
    inbound: { kick: () => {} },
  };

  // Stored message bodies are sealed with the system key: derive it now, off the event loop.
  await ctx.cipher.prepare(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt);

  const app = Fastify({
    // Never log bodies or tokens: only method, path (no query string) and status (logging/logger.ts).
    loggerInstance: createLogger({ level: config.logLevel, isProduction: config.isProduction, pretty: config.logPretty }, options.logDestination),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    ...socketTimeouts,
  });
  app.decorate('ctx', ctx);
  if (!storedHashKey.opened) {
    // Started anyway, as with any value no configured key opens (the journal shows it too).
    app.log.warn('Neither MASTER_KEY nor MASTER_KEY_PREVIOUS opens the stored key of import fingerprints and UNDO (sealed_secrets): MASTER_KEY is not this database\'s key');
  }
  app.addHook('onClose', async () => {
    await database.close();
  });
  if (database.kind === 'postgres') {
    // Realtime across instances: LISTEN/NOTIFY on the same database (closed before the pool).
    const bus = await createPgEventBus({ connectionString: config.databaseUrl, db: database.db, log: app.log.child({ component: 'events' }) });
    ctx.events = bus;
    app.addHook('onClose', () => bus.close());
  }

  registerSecurityHeaders(app);
  await app.register(formbody);
  await registerCompression(app);
  registerErrorHandler(app);
  registerNoStoreForApi(app);
  registerMetrics(app);

  app.get('/healthz', async () => {
    await ctx.db.selectFrom('users').select('id').limit(1).execute();
    return { ok: true };
  });

  await app.register(authRoutes, { prefix: '/api/auth' });
  await app.register(accountDeletionRoutes, { prefix: '/api/auth' });
  await app.register(journalPlugins);
  await app.register(profileRoutes, { prefix: '/api/profile' });
  await app.register(importRoutes, { prefix: '/api/import' });
  await app.register(onThisDayRoutes, { prefix: '/api/on-this-day' });
  await app.register(vaultRoutes, { prefix: '/api/vault' });
  await app.register(subscriptionRoutes, { prefix: '/api/subscription' });
  await app.register(billingRoutes, { prefix: '/api/billing' });
  await app.register(stripeWebhookRoutes, { prefix: '/webhooks/stripe' });
  await app.register(smsWebhookRoutes, { prefix: '/webhooks/twilio' });
  await app.register(adminRoutes, { prefix: '/api/admin' });
  // The simulators' APIs, in development only (dev/index.ts).
  await app.register(devRoutes);
  registerJobs(app);
  await app.register(webRoutes, { serveWeb: options.serveWeb ?? true, root: options.webRoot });
  return app;
}
