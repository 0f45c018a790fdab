import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addPasskeySchema,
  confirmPersonSchema,
  passkeyOptionsSchema,
  removePasskeySchema,
  renamePasskeySchema,
  securityMessages,
  sessionParamsSchema,
  totpCodeSchema,
} from '../../../shared/second-factor';
import { notFound } from '../../errors';
import { recordSecurityEvent } from '../../security/events';
import { currentUser, requireUser } from '../authenticate';
import { confirmPerson } from '../fresh-proof';
import type { Client } from '../limits';
import { addPasskey, authenticationOptions, listPasskeys, registrationOptions, removePasskey, renamePasskey } from '../passkeys/service';
import { revokeFamily } from '../token-repo';
import { deviceLabel } from './device';
import { liveMfaChallenge } from './second-step';
import { securityLog } from './security-log';
import { listLiveSessions } from './session-records';
import { beginTotp, confirmTotp, disableTotp } from './totp';

/** Who is asking: the address, the device cookie (device-cookies.ts) and the browser's own name. */
export const clientOf = (request: FastifyRequest): Client => ({ ip: request.ip, cookies: request.headers.cookie, userAgent: request.headers['user-agent'] });

/** /api/auth: passkeys, the TOTP second factor, sessions and the security log (DESIGN §6). */
export async function secondFactorRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  // Anonymous: options for signing in with a passkey, or, with an mfa_token, for the second step.
  app.post('/passkey-options', { schema: { body: passkeyOptionsSchema } }, async (request) => {
    const token = request.body.mfa_token;
    if (!token) return authenticationOptions(ctx, null);
    const challenge = await liveMfaChallenge(ctx, token);
    return authenticationOptions(ctx, { userId: challenge.user_id, mfaChallengeId: challenge.id });
  });

  await app.register(async (plainSignedIn) => {
    const signedIn = plainSignedIn.withTypeProvider<ZodTypeProvider>();
    signedIn.addHook('onRequest', requireUser);

    signedIn.post('/passkeys/options', async (request) => registrationOptions(ctx, currentUser(request)));

    signedIn.post('/passkeys', { schema: { body: addPasskeySchema } }, async (request, reply) => {
      return reply.status(201).send(await addPasskey(ctx, currentUser(request), request.body, clientOf(request)));
    });

    signedIn.get('/passkeys', async (request) => ({ passkeys: await listPasskeys(ctx, currentUser(request).id) }));

    signedIn.patch('/passkeys/:id', { schema: { params: sessionParamsSchema, body: renamePasskeySchema } }, async (request) => {
      return renamePasskey(ctx, currentUser(request).id, request.params.id, request.body.name);
    });

    signedIn.delete('/passkeys/:id', { schema: { params: sessionParamsSchema, body: removePasskeySchema } }, async (request, reply) => {
      await removePasskey(ctx, currentUser(request).id, request.params.id, request.body.password, clientOf(request));
      return reply.status(204).send();
    });

    signedIn.post('/totp', async (request) => beginTotp(ctx, currentUser(request)));

    signedIn.post('/totp/confirm', { schema: { body: totpCodeSchema } }, async (request) => {
      return { recovery_codes: await confirmTotp(ctx, currentUser(request), request.body.code, clientOf(request)) };
    });

    signedIn.delete('/totp', { schema: { body: totpCodeSchema } }, async (request, reply) => {
      await disableTotp(ctx, currentUser(request), request.body.code, clientOf(request));
      return reply.status(204).send();
    });

    signedIn.get('/sessions', async (request) => {
      const user = currentUser(request);
      return { sessions: await listLiveSessions(ctx.db, user.id, user.sessionFamily, ctx.clock.now().toISOString()) };
    });

    // Ends one session at once: its refresh tokens, its access tokens and its open event streams.
    signedIn.delete('/sessions/:id', { schema: { params: sessionParamsSchema } }, async (request, reply) => {
      const user = currentUser(request);
      const now = ctx.clock.now().toISOString();
      const live = (await listLiveSessions(ctx.db, user.id, user.sessionFamily, now)).some((s) => s.id === request.params.id);
      if (!live) throw notFound(securityMessages.sessionNotFound);
      await revokeFamily(ctx.db, request.params.id, now);
      ctx.events.publish(user.id, { type: 'sessions.changed' });
      await recordSecurityEvent(ctx, { event_type: 'session_ended', severity: 'low', user_id: user.id, ip: request.ip, details: { device: deviceLabel(request.headers['user-agent']) } });
      return reply.status(204).send();
    });

    signedIn.get('/events', async (request) => ({ events: await securityLog(ctx, currentUser(request).id) }));

    // The person proves it is them again, for a change that needs it (auth/fresh-proof.ts).
    signedIn.post('/confirm', { schema: { body: confirmPersonSchema } }, async (request, reply) => {
      await confirmPerson(ctx, currentUser(request), request.body, clientOf(request));
      return reply.status(204).send();
    });
  });
}
