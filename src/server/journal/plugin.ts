import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { photoRoutes } from './photo-routes';
import { requireJournalAccess } from './gate';
import { entryRoutes, entryUploadRoutes, statsRoutes } from './routes';
import { recordingRoutes, transcribeRoutes } from '../voice/routes';

/** The journal's own routes: entries, photos and statistics, behind sign-in and access. */
export async function journalPlugins(app: FastifyInstance): Promise<void> {
  // The journal itself needs sign-in and a running trial or subscription.
  await app.register(async (journal) => {
    journal.addHook('onRequest', requireJournalAccess);
    await journal.register(entryRoutes, { prefix: '/api/entries' });
    await journal.register(statsRoutes, { prefix: '/api/stats' });
    await journal.register(transcribeRoutes, { prefix: '/api/entries' });
    // Only the routes that take photos read multipart forms: the plugin adds two hooks to every
    // request of the routes it covers, and reading the journal needs neither.
    await journal.register(async (uploads) => {
      await uploads.register(multipart);
      await uploads.register(entryUploadRoutes, { prefix: '/api/entries' });
      await uploads.register(photoRoutes, { prefix: '/api/entries' });
      await uploads.register(recordingRoutes, { prefix: '/api/entries' });
    });
  });
}
