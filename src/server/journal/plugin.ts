import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { eventRoutes } from '../events/routes';
import { exportRoutes } from '../export/routes';
import { mediaRoutes } from '../photos/media-routes';
import { photoRoutes } from '../photos/routes';
import { requireJournalAccess } from './gate';
import { entryRoutes, entryUploadRoutes, statsRoutes } from './routes';

/** Everything the journal serves: entries, photos, statistics, export, media links and events. */
export async function journalPlugins(app: FastifyInstance): Promise<void> {
  // The journal itself needs sign-in and a running trial or subscription.
  await app.register(async (journal) => {
    journal.addHook('onRequest', requireJournalAccess);
    await journal.register(entryRoutes, { prefix: '/api/entries' });
    await journal.register(statsRoutes, { prefix: '/api/stats' });
    // Only the routes that take photos read multipart forms: the plugin adds two hooks to every
    // request of the routes it covers, and reading the journal needs neither.
    await journal.register(async (uploads) => {
      await uploads.register(multipart);
      await uploads.register(entryUploadRoutes, { prefix: '/api/entries' });
      await uploads.register(photoRoutes, { prefix: '/api/entries' });
    });
  });
  // Export needs sign-in only; media links carry their own signature; events check the token.
  await app.register(exportRoutes, { prefix: '/api/export' });
  await app.register(mediaRoutes, { prefix: '/media' });
  await app.register(eventRoutes, { prefix: '/api/events' });
}
