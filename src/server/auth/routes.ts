import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  logoutSchema,
  recoverSchema,
  resendVerificationSchema,
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
import { deviceCookieFor } from './device-cookies';
import { sendEmailVerification, verifyEmail } from './email-verification';
import { renewPendingSignUp } from './pending-sign-ups';
import { checkPhoneVerification } from './phone-verification';
import { presentSession, presentUser } from './present';
import { requestRecovery, verifyRecovery } from './recovery';
import { signInWithLink, signInWithPassword } from './sign-in';
import { textSignInLink } from './sign-in-by-text';
import { signUp } from './sign-up';
import { refreshSession } from './sessions';
import { verificationEventRoutes } from './verification-events';
import { resendVerificationText } from './verification-texts';


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
  await app.register(secondFactorRoutes);

  /**
   * A session, or the second step a user with a second factor still owes. A browser that signs in
   * becomes a known device of the account (device-cookies.ts), once the sign-in is whole.
   */
  const presentSignIn = (reply: FastifyReply, outcome: SignInOutcome) => {
    if (needsSecondFactor(outcome)) return outcome;
    reply.header('set-cookie', deviceCookieFor(ctx, outcome.account.id));
    return presentSession(outcome);
  };

  app.post('/token', { schema: { body: tokenRequestSchema } }, async (request, reply) => {
    const grant = request.body;
    switch (grant.grant_type) {
      case 'password':
        return presentSignIn(reply, await signInWithPassword(ctx, grant, clientOf(request)));
      case 'refresh_token':
        return presentSession(await refreshSession(ctx, grant.refresh_token, clientOf(request)));
      case 'link':
        return presentSignIn(reply, await signInWithLink(ctx, grant.token, clientOf(request)));
      case 'passkey': {
        // A passkey is two factors in one: the device, and the PIN or biometric that unlocked it.
        const userId = await verifyAssertion(ctx, grant.response, null, clientOf(request));
        return presentSignIn(reply, await openSignedInSession(ctx, userId, 'passkey', true, clientOf(request)));
      }
      case 'mfa':
        return presentSignIn(reply, await completeSecondStep(ctx, grant, clientOf(request)));
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
    return presentSignIn(reply, await verifyRecovery(ctx, request.body, clientOf(request)));
  });

  await app.register(async (plainSignedIn) => {
    const signedIn = plainSignedIn.withTypeProvider<ZodTypeProvider>();
    // Before the body is checked: no session, 401 whatever was sent.
    signedIn.addHook('onRequest', requireUser);

    // With the second factors the user has, for Settings → Security; renews an unverified sign-up in use.
    signedIn.get('/user', async (request) => {
      const id = currentUser(request).id;
      await renewPendingSignUp(ctx.db, ctx.clock.now(), id);
      return { ...presentUser(await getAccount(ctx, id)), second_factors: await secondFactorsOf(ctx.db, id) };
    });

    // The e-mail's confirmation link, or ({type: "sms"}) the phone's verification text, sent again.
    signedIn.post('/verify/resend', { schema: { body: resendVerificationSchema } }, async (request, reply) => {
      if (request.body.type === 'sms') {
        await resendVerificationText(ctx, currentUser(request).id, clientOf(request));
        return reply.status(204).send();
      }
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
