import type { FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../shared/messages';
import { currentUser } from '../auth/authenticate';
import { getAccessStatus } from '../billing/access';
import { AppError } from '../errors';

/** onRequest hook after requireUser: the journal needs a running trial or subscription (402 otherwise). */
export async function requireAccess(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const status = await getAccessStatus(request.server.ctx, currentUser(request).id);
  if (!status.hasAccess) throw new AppError('ACCESS_REQUIRED', messages.entries.accessRequired);
}
