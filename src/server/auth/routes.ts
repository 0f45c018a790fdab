import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  logoutSchema,
  recoverSchema,
  signUpRequestSchema,
  tokenRequestSchema,
  updateUserSchema,
  verificationTokenSchema,
  verifyRecoverySchema,
  type SignUpResult,
} from '../../shared/auth-schemas';
import { signInLinkRequestSchema, type SignInLinkResult } from '../../shared/sign-in-by-text';
import { parseInput } from '../http/validate';
import { changePassword, getAccount, signOut } from './account';
import { currentUser, requireUser } from './authenticate';
import type { Client } from './limits';
import { checkPhoneVerification } from './phone-verification';
import { presentSession, presentUser } from './present';
import { requestRecovery, verifyRecovery } from './recovery';
import { signInWithLink, signInWithPassword } from './sign-in';
import { textSignInLink } from './sign-in-by-text';
import { signUp } from './sign-up';
import { refreshSession } from './sessions';
import { verificationEventRoutes } from './verification-events';

const clientOf = (request: FastifyRequest): Client => ({ ip: request.ip });

/** /api/auth: sign-up, phone verification, sessions, recovery, the signed-in user. */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const ctx = app.ctx;

  app.post('/signup', async (request): Promise<SignUpResult> => {
    const input = parseInput(signUpRequestSchema, request.body);
    const { verificationToken } = await signUp(ctx, input, clientOf(request));
    return { verification_token: verificationToken, redirect_to: '/journal' };
  });

  app.post('/verify-phone', async (request) => {
    const { verification_token } = parseInput(verificationTokenSchema, request.body);
    return checkPhoneVerification(ctx, verification_token);
  });

  await app.register(verificationEventRoutes);

  app.post('/token', async (request) => {
    const grant = parseInput(tokenRequestSchema, request.body);
    switch (grant.grant_type) {
      case 'password':
        return presentSession(await signInWithPassword(ctx, grant, clientOf(request)));
      case 'refresh_token':
        return presentSession(await refreshSession(ctx, grant.refresh_token, clientOf(request)));
      case 'link':
        return presentSession(await signInWithLink(ctx, grant.token));
    }
  });

  app.post('/link', async (request): Promise<SignInLinkResult> => {
    await textSignInLink(ctx, parseInput(signInLinkRequestSchema, request.body), clientOf(request));
    return {};
  });

  app.post('/recover', async (request) => {
    await requestRecovery(ctx, parseInput(recoverSchema, request.body), clientOf(request));
    return {};
  });

  app.post('/verify', async (request) => {
    return presentSession(await verifyRecovery(ctx, parseInput(verifyRecoverySchema, request.body)));
  });

  await app.register(async (signedIn) => {
    signedIn.addHook('preHandler', requireUser);

    signedIn.get('/user', async (request) => presentUser(await getAccount(ctx, currentUser(request).id)));

    signedIn.put('/user', async (request) => {
      const input = parseInput(updateUserSchema, request.body);
      return presentUser(await changePassword(ctx, currentUser(request), input));
    });

    signedIn.post('/logout', async (request, reply) => {
      await signOut(ctx, currentUser(request), parseInput(logoutSchema, request.body));
      return reply.status(204).send();
    });
  });
}
