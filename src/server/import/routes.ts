import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireUser } from '../auth/authenticate';
import { importJournal } from './service';
import { readImportFile } from './upload';

/** POST /api/import (multipart field `file`) → {imported, skipped, photos_skipped}. Sign-in only. */
export async function importRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', requireUser);
  await app.register(multipart);

  app.post('/', async (request) => {
    const file = await readImportFile(request);
    return importJournal(app.ctx, currentUser(request).id, file);
  });
}
