import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
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

const importParams = z.object({ id: z.string().min(1).max(100) });

/** GET /api/imports/:id → {status, total, imported, skipped, photos_imported, photos_skipped, reasons, error}. */
export async function importStatusRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  app.get('/:id', { schema: { params: importParams } }, async (request) => importStatus(app.ctx, currentUser(request).id, request.params.id));
}
