import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deleteAccountBodySchema, type DeleteAccountResponse } from '../../shared/account-deletion';
import { messages } from '../../shared/messages';
import { currentUser, requireUser } from '../auth/authenticate';
import { requireFreshProof } from '../auth/fresh-proof';
import { unauthorized } from '../errors';
import { deleteAccount } from './delete-account';

/** DELETE /api/auth/user {confirmationText: "DELETE"}: users delete their own account. */
export async function accountDeletionRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  // Sign-in is checked before the body: no session, 401 whatever was sent.
  app.delete('/user', { onRequest: requireUser, schema: { body: deleteAccountBodySchema } }, async (request): Promise<DeleteAccountResponse> => {
    const user = currentUser(request);
    // Deleting the account cannot be undone: the person proves it is them (auth/fresh-proof.ts).
    await requireFreshProof(app.ctx, user);
    const summary = await deleteAccount(app.ctx, user.id, { eventType: 'account_deleted', actorId: null, ip: request.ip });
    if (!summary) throw unauthorized(messages.auth.sessionExpired);
    return { success: true, summary };
  });
}
