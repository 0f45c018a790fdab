import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
import { changePassword, getAccount, signOut } from './account';
import { secondFactorsOf } from './mfa/methods';
import { clientOf, secondFactorRoutes } from './mfa/routes';
import { completeSecondStep } from './mfa/second-step';
import { needsSecondFactor, openSignedInSession, type SignInOutcome } from './mfa/sign-in-session';
import { verifyAssertion } from './passkeys/service';
import { currentUser, requireUser } from './authenticate';
import { checkPhoneVerification } from './phone-verification';
import { presentSession, presentUser } from './present';
import { requestRecovery, verifyRecovery } from './recovery';
import { signInWithLink, signInWithPassword } from './sign-in';
import { textSignInLink } from './sign-in-by-text';
import { signUp } from './sign-up';
import { refreshSession } from './sessions';
import { verificationEventRoutes } from './verification-events';

/** A session, or the second step a user with a second factor still owes. */
const presentSignIn = (outcome: SignInOutcome) => (needsSecondFactor(outcome) ? outcome : presentSession(outcome));

/** /api/auth: sign-up, phone verification, sessions, recovery, the signed-in user. */
export async function authRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  app.post('/signup', { schema: { body: signUpRequestSchema } }, async (request): Promise<SignUpResult> => {
    const { verificationToken } = await signUp(ctx, request.body, clientOf(request));
    return { verification_token: verificationToken, redirect_to: '/journal' };
  });

  app.post('/verify-phone', { schema: { body: verificationTokenSchema } }, async (request) => {
    return checkPhoneVerification(ctx, request.body.verification_token);
  });

  await app.register(verificationEventRoutes);
  await app.register(secondFactorRoutes);

  app.post('/token', { schema: { body: tokenRequestSchema } }, async (request) => {
    const grant = request.body;
    switch (grant.grant_type) {
      case 'password':
        return presentSignIn(await signInWithPassword(ctx, grant, clientOf(request)));
      case 'refresh_token':
        return presentSession(await refreshSession(ctx, grant.refresh_token, clientOf(request)));
      case 'link':
        return presentSignIn(await signInWithLink(ctx, grant.token, clientOf(request)));
      case 'passkey': {
        // A passkey is two factors in one: the device, and the PIN or biometric that unlocked it.
        const userId = await verifyAssertion(ctx, grant.response, null, clientOf(request));
        return presentSession(await openSignedInSession(ctx, userId, 'passkey', true, clientOf(request)));
      }
      case 'mfa':
        return presentSession(await completeSecondStep(ctx, grant, clientOf(request)));
    }
  });

  app.post('/link', { schema: { body: signInLinkRequestSchema } }, async (request): Promise<SignInLinkResult> => {
    await textSignInLink(ctx, request.body, clientOf(request));
    return {};
  });

  app.post('/recover', { schema: { body: recoverSchema } }, async (request) => {
    await requestRecovery(ctx, request.body, clientOf(request));
    return {};
  });

  app.post('/verify', { schema: { body: verifyRecoverySchema } }, async (request) => {
    return presentSignIn(await verifyRecovery(ctx, request.body, clientOf(request)));
  });

  await app.register(async (plainSignedIn) => {
    const signedIn = plainSignedIn.withTypeProvider<ZodTypeProvider>();
    // Before the body is checked: no session, 401 whatever was sent.
    signedIn.addHook('onRequest', requireUser);

    // With the second factors the user has, for Settings → Security.
    signedIn.get('/user', async (request) => {
      const id = currentUser(request).id;
      return { ...presentUser(await getAccount(ctx, id)), second_factors: await secondFactorsOf(ctx.db, id) };
    });

    signedIn.put('/user', { schema: { body: updateUserSchema } }, async (request) => {
      return presentUser(await changePassword(ctx, currentUser(request), request.body));
    });

    signedIn.post('/logout', { schema: { body: logoutSchema } }, async (request, reply) => {
      await signOut(ctx, currentUser(request), request.body);
      return reply.status(204).send();
    });
  });
}
