import type { FastifyInstance } from 'fastify';
import { exportQuerySchema } from '../../shared/journal';
import { currentUser, requireUser } from '../auth/authenticate';
import { parseInput } from '../http/validate';
import { refuseForVault } from '../vault/guards';
import { exportJournal } from './service';

/** GET /api/export?format=txt|pdf|json|md&from=&to=&photos=: a download. Sign-in only, no access check. */
export async function exportRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', requireUser);

  app.get('/', async (request, reply) => {
    const query = parseInput(exportQuerySchema, request.query);
    await refuseForVault(app.ctx, currentUser(request).id);
    const file = await exportJournal(app.ctx, currentUser(request).id, query);
    return reply
      .type(file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(file.body);
  });
}
