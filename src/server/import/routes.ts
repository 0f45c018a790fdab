import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireUser } from '../auth/authenticate';
import { refuseForVault } from '../vault/guards';
import { setImportLog, stopImports } from './runner';
import { importStatus, prepareImport, queueImport } from './service';
import { receiveUpload } from './upload';

/** POST /api/import (multipart field `file`) → 202 {import_id}. Sign-in only. */
export async function importRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', requireUser);
  await app.register(multipart);
  setImportLog(app.ctx, app.log.child({ component: 'imports' }));
  // Running imports stop after their chunk and wait in the queue for the next start.
  app.addHook('onClose', async () => stopImports(app.ctx));

  app.post('/', async (request, reply) => {
    await refuseForVault(app.ctx, currentUser(request).id);
    const ref = await prepareImport(app.ctx, currentUser(request).id);
    const upload = await receiveUpload(app.ctx, request, ref);
    return reply.status(202).send(await queueImport(app.ctx, ref, upload));
  });
}

/** GET /api/imports/:id → {status, total, imported, skipped, photos_imported, photos_skipped, reasons, error}. */
export async function importStatusRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', requireUser);
  app.get<{ Params: { id: string } }>('/:id', async (request) => importStatus(app.ctx, currentUser(request).id, request.params.id));
}
