import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import { currentUser, requireUser } from './authenticate';
import { deviceCookieFor } from './device-cookies';
import type { Client } from './limits';
import { sendEmailVerification, verifyEmail } from './email-verification';
import { renewPendingSignUp } from './pending-sign-ups';
import { checkPhoneVerification } from './phone-verification';
import { presentSession, presentUser } from './present';
import { requestRecovery, verifyRecovery } from './recovery';
import { signInWithLink, signInWithPassword } from './sign-in';
import { textSignInLink } from './sign-in-by-text';
import { signUp } from './sign-up';
import { refreshSession, type SessionGrant } from './sessions';
import { verificationEventRoutes } from './verification-events';

const clientOf = (request: FastifyRequest): Client => ({ ip: request.ip, cookies: request.headers.cookie });

/** /api/auth: sign-up, phone verification, sessions, recovery, the signed-in user. */
export async function authRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  app.post('/signup', { schema: { body: signUpRequestSchema } }, async (request): Promise<SignUpResult> => {
    const { userId, verificationToken } = await signUp(ctx, request.body, clientOf(request));
    // The account stands without it: a mail that could not go is sent again from the journal.
    await sendEmailVerification(ctx, userId).catch((err: unknown) => request.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'e-mail verification not sent'));
    return { verification_token: verificationToken, redirect_to: '/journal' };
  });

  app.post('/verify-phone', { schema: { body: verificationTokenSchema } }, async (request) => {
    return checkPhoneVerification(ctx, request.body.verification_token);
  });

  await app.register(verificationEventRoutes);

  // A browser that signs in becomes a known device of the account (device-cookies.ts).
  const asKnownDevice = (reply: FastifyReply, session: SessionGrant) => {
    reply.header('set-cookie', deviceCookieFor(ctx, session.account.id));
    return presentSession(session);
  };

  app.post('/token', { schema: { body: tokenRequestSchema } }, async (request, reply) => {
    const grant = request.body;
    switch (grant.grant_type) {
      case 'password':
        return asKnownDevice(reply, await signInWithPassword(ctx, grant, clientOf(request)));
      case 'refresh_token':
        return presentSession(await refreshSession(ctx, grant.refresh_token, clientOf(request)));
      case 'link':
        return asKnownDevice(reply, await signInWithLink(ctx, grant.token));
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

  app.post('/verify', { schema: { body: verifyRecoverySchema } }, async (request, reply) => {
    if (request.body.type === 'email') return verifyEmail(ctx, request.body.token_hash);
    return asKnownDevice(reply, await verifyRecovery(ctx, request.body));
  });

  await app.register(async (plainSignedIn) => {
    const signedIn = plainSignedIn.withTypeProvider<ZodTypeProvider>();
    // Before the body is checked: no session, 401 whatever was sent.
    signedIn.addHook('onRequest', requireUser);

    signedIn.get('/user', async (request) => {
      await renewPendingSignUp(ctx.db, ctx.clock.now(), currentUser(request).id);
      return presentUser(await getAccount(ctx, currentUser(request).id));
    });

    signedIn.post('/verify/resend', async (request) => {
      await sendEmailVerification(ctx, currentUser(request).id);
      return {};
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
