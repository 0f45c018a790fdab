import type { FastifyInstance } from 'fastify';
import { currentUser } from '../auth/authenticate';
import { presentEntry } from '../journal/present';
import { requireJournalAccess } from '../journal/gate';
import { entriesOnThisDay } from './service';

/** GET /api/on-this-day → {entries}: like /api/entries, it needs sign-in and access to the journal. */
export async function onThisDayRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', requireJournalAccess);
  app.get('/', async (request) => {
    const entries = await entriesOnThisDay(app.ctx, currentUser(request).id, request.journalRevision);
    return { entries: entries.map((entry) => presentEntry(app.ctx, entry)) };
  });
}
