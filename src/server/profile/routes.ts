import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { profileUpdateSchema } from '../../shared/profile';
import { currentUser, requireUser } from '../auth/authenticate';
import { presentProfile } from './present';
import { getProfile, updateProfile } from './service';

/** /api/profile: the signed-in user's own profile and reminder settings. */
export async function profileRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  app.get('/', async (request) => presentProfile(await getProfile(app.ctx, currentUser(request).id), app.ctx.config.journalNumber));
  app.patch('/', { schema: { body: profileUpdateSchema } }, async (request) => {
    return presentProfile(await updateProfile(app.ctx, currentUser(request).id, request.body), app.ctx.config.journalNumber);
  });
}
