import type { FastifyInstance } from 'fastify';
import type { SubscriptionResponse } from '../../shared/profile';
import { currentUser, requireUser } from '../auth/authenticate';
import { getAccessStatus } from './access';

/** GET /api/subscription: trial and subscription state, as the spec's check-subscription call returns it. */
export async function subscriptionRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', requireUser);
  app.get('/', async (request): Promise<SubscriptionResponse> => {
    const { hasAccess: _hasAccess, ...status } = await getAccessStatus(app.ctx, currentUser(request).id);
    return status;
  });
}
