import type { FastifyInstance } from 'fastify';
import { profileUpdateSchema } from '../../shared/profile';
import { currentUser, requireUser } from '../auth/authenticate';
import { parseInput } from '../http/validate';
import { presentProfile } from './present';
import { getProfile, updateProfile } from './service';

/** /api/profile: the signed-in user's own profile and reminder settings. */
export async function profileRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', requireUser);
  app.get('/', async (request) => presentProfile(await getProfile(app.ctx, currentUser(request).id), app.ctx.config.journalNumber));
  app.patch('/', async (request) => {
    const changes = parseInput(profileUpdateSchema, request.body);
    return presentProfile(await updateProfile(app.ctx, currentUser(request).id, changes), app.ctx.config.journalNumber);
  });
}
