import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { exportQuerySchema } from '../../shared/journal';
import { currentUser, requireUser } from '../auth/authenticate';
import { refuseForVault } from '../vault/guards';
import { exportJournal } from './service';

/** GET /api/export?format=txt|pdf|json|md&from=&to=&photos=: a download. Sign-in only, no access check. */
export async function exportRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);

  app.get('/', { schema: { querystring: exportQuerySchema } }, async (request, reply) => {
    const query = request.query;
    await refuseForVault(app.ctx, currentUser(request).id);
    const file = await exportJournal(app.ctx, currentUser(request).id, query);
    return reply
      .type(file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(file.body);
  });
}
