import type { FastifyInstance } from 'fastify';
import { deleteAccountBodySchema, type DeleteAccountResponse } from '../../shared/account-deletion';
import { messages } from '../../shared/messages';
import { currentUser, requireUser } from '../auth/authenticate';
import { unauthorized } from '../errors';
import { parseInput } from '../http/validate';
import { deleteAccount } from './delete-account';

/** DELETE /api/auth/user {confirmationText: "DELETE"}: users delete their own account. */
export async function accountDeletionRoutes(app: FastifyInstance): Promise<void> {
  app.delete('/user', { preHandler: requireUser }, async (request): Promise<DeleteAccountResponse> => {
    parseInput(deleteAccountBodySchema, request.body ?? {});
    const user = currentUser(request);
    const summary = await deleteAccount(app.ctx, user.id, { eventType: 'account_deleted', actorId: null, ip: request.ip });
    if (!summary) throw unauthorized(messages.auth.sessionExpired);
    return { success: true, summary };
  });
}
