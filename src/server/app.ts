import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import { accountDeletionRoutes } from './account-deletion/routes';
import { adminRoutes } from './admin/routes';
import { authRoutes } from './auth/routes';
import { billingRoutes } from './billing/billing-routes';
import { subscriptionRoutes } from './billing/routes';
import { stripeWebhookRoutes } from './billing/webhook-routes';
import { registerCompression } from './compression/index';
import type { Config } from './config';
import type { AppContext } from './context';
import { createContext, type ContextOptions } from './create-context';
import { devRoutes } from './dev/index';
import { eventRoutes } from './events/routes';
import { exportRoutes } from './export/routes';
import { registerAccountEventLog } from './auth/mfa/account-events';
import { registerErrorHandler } from './http/error-handler';
import { registerRefusedUploads } from './http/refused-uploads';
import { registerNoStoreForApi } from './http/no-store';
import { validatorCompiler } from './http/validate';
import { importRoutes, importStatusRoutes } from './import/routes';
import { registerJobs } from './jobs/index';
import { createLogger } from './logging/logger';
import { registerMetrics } from './metrics/routes';
import { journalPlugins } from './journal/plugin';
import { onThisDayRoutes } from './on-this-day/routes';
import { mediaRoutes } from './photos/media-routes';
import { profileRoutes } from './profile/routes';
import { registerSecurityHeaders } from './security/headers';
import { capConnections, registerBodyProgressTimeout, socketTimeouts } from './security/socket-timeouts';
import { smsWebhookRoutes } from './sms/routes';
import { voiceWebhookRoutes } from './voice/calls/routes';
import { vaultRoutes } from './vault/routes';
import { webRoutes } from './web';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

interface BuildOptions extends ContextOptions {
  /** Serve the built web app (off in API tests). */
  serveWeb?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logDestination?: DestinationStream;
  /** Where the built web app is (default dist/web). */
  webRoot?: string;
  /** Told of every route as it is registered (Fastify's onRoute hook): the security tests list them so. */
  onRoute?: (route: RouteOptions) => void;
}

/** Builds the whole product as one Fastify instance. `main.ts` only listens. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  // Never log bodies or tokens: only method, path (no query string) and status (logging/logger.ts).
  const logger = createLogger({ level: config.logLevel, isProduction: config.isProduction, pretty: config.logPretty }, options.logDestination);
  const { ctx, storedHashKeyDecrypted, close } = await createContext(config, { ...options, eventsLog: logger.child({ component: 'events' }) });

  const app = Fastify({
    loggerInstance: logger,
    // Each request's own logger (bound to its id) only where a line can be written at all: pino's
    // child copies the redaction and serialisers, on every request, for lines LOG_LEVEL=silent drops.
    childLoggerFactory: (logger, bindings, childOptions) => (logger.level === 'silent' ? logger : logger.child(bindings, childOptions)),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    ...socketTimeouts,
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.decorate('ctx', ctx);
  // Routes declare their input and answers as zod schemas (fastify-type-provider-zod).
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (!storedHashKeyDecrypted) {
    // Started anyway, as with any value no configured key decrypts (the journal shows it too).
    app.log.warn('Neither MASTER_KEY nor MASTER_KEY_PREVIOUS decrypts the stored key of import fingerprints and UNDO (sealed_secrets): MASTER_KEY is not this database\'s key');
  }
  app.addHook('onClose', close);

  registerSecurityHeaders(app);
  capConnections(app, config.maxConnections);
  registerBodyProgressTimeout(app);
  await app.register(formbody);
  await registerCompression(app);
  registerErrorHandler(app);
  registerRefusedUploads(app);
  registerNoStoreForApi(app);
  registerMetrics(app);
  registerAccountEventLog(app);

  app.get('/healthz', async () => {
    await ctx.db.selectFrom('users').select('id').limit(1).execute();
    return { ok: true };
  });

  await app.register(authRoutes, { prefix: '/api/auth' });
  await app.register(accountDeletionRoutes, { prefix: '/api/auth' });
  await app.register(journalPlugins);
  // Export needs sign-in only; media links carry their own signature; events check the token.
  await app.register(exportRoutes, { prefix: '/api/export' });
  await app.register(mediaRoutes, { prefix: '/media' });
  await app.register(eventRoutes, { prefix: '/api/events' });
  await app.register(profileRoutes, { prefix: '/api/profile' });
  await app.register(importRoutes, { prefix: '/api/import' });
  await app.register(importStatusRoutes, { prefix: '/api/imports' });
  await app.register(onThisDayRoutes, { prefix: '/api/on-this-day' });
  await app.register(vaultRoutes, { prefix: '/api/vault' });
  await app.register(subscriptionRoutes, { prefix: '/api/subscription' });
  await app.register(billingRoutes, { prefix: '/api/billing' });
  await app.register(stripeWebhookRoutes, { prefix: '/webhooks/stripe' });
  await app.register(smsWebhookRoutes, { prefix: '/webhooks/twilio' });
  await app.register(voiceWebhookRoutes, { prefix: '/webhooks/twilio' });
  await app.register(adminRoutes, { prefix: '/api/admin' });
  // The simulators' APIs, in development only (dev/index.ts).
  await app.register(devRoutes);
  registerJobs(app);
  await app.register(webRoutes, { serveWeb: options.serveWeb ?? true, root: options.webRoot });
  return app;
}
