import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../shared/messages';
import { currentUser, requireUser } from '../auth/authenticate';
import { hasLiveSession } from '../auth/token-repo';
import { rateLimited, unauthorized } from '../errors';
import { hit, rateLimitKey, type RateLimit } from '../rate-limit';
import type { UserEvent } from '../events';
import { OpenStreams, type OpenStream } from './open-streams';
import { HEARTBEAT_MS, pipeUserEvents } from './stream';
import { EventHistory } from './history';
import { holderOfStreamCookie, issueStreamTicket, redeemStreamTicket, streamCookieFor, type StreamHolder } from './tickets';

/**
 * Stream tickets a user may take: a page asks for one when it opens its stream and again at most
 * every 5 s while it cannot, a few tabs at once stay well within it.
 */
const STREAM_TICKETS_PER_USER: RateLimit = { limit: 30, windowMs: 60_000 };

const streamQuerySchema = z.object({
  /** The single-use ticket from POST /api/events/ticket. */
  ticket: z.string({ error: messages.generic.invalidInput }).optional(),
});

/**
 * Whose stream this is: from a single-use `?ticket=`; else (an EventSource reconnecting by itself,
 * with its used ticket) from the stream cookie given with the ticket; else a bearer header
 * (clients that can send one).
 */
async function streamHolder(request: FastifyRequest, reply: FastifyReply, ticket: string | undefined): Promise<StreamHolder> {
  const ctx = request.server.ctx;
  const holder = (ticket ? await redeemStreamTicket(ctx, ticket) : undefined) ?? (await holderOfStreamCookie(ctx, request.headers.cookie));
  if (holder) return holder;
  if (ticket !== undefined) throw unauthorized(messages.auth.sessionExpired);
  await requireUser(request, reply);
  const user = currentUser(request);
  return { userId: user.id, sessionFamily: user.sessionFamily };
}

/**
 * /api/events: the user's realtime channel (server-sent events). POST /ticket trades the bearer
 * token for a single-use ticket; GET /?ticket= opens the stream. A stream ends with its session:
 * at sign-out (its own, or every session) and at the latest one heartbeat after a revocation.
 */
export async function eventRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const open = new OpenStreams();
  const history = new EventHistory(ctx.events);
  // Open streams would hold the server up on close; end them first.
  app.addHook('preClose', async () => open.closeAll());
  app.addHook('onClose', async () => history.close());

  app.post('/ticket', { preHandler: requireUser }, async (request, reply) => {
    const user = currentUser(request);
    if (!(await hit(ctx, rateLimitKey('stream-ticket', user.id), STREAM_TICKETS_PER_USER))) throw rateLimited(messages.generic.rateLimited);
    const holder = { userId: user.id, sessionFamily: user.sessionFamily };
    reply.header('set-cookie', streamCookieFor(ctx, holder));
    return { ticket: await issueStreamTicket(ctx, holder) };
  });

  app.get('/', { schema: { querystring: streamQuerySchema } }, async (request, reply) => {
    const holder = await streamHolder(request, reply, request.query.ticket);
    reply.hijack();
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'private, no-store, no-transform',
      connection: 'keep-alive',
      // Tell nginx-style proxies not to buffer the stream.
      'x-accel-buffering': 'no',
    });
    const endIfSignedOut = async () => {
      const live = await hasLiveSession(ctx.db, holder.userId, holder.sessionFamily).catch(() => true);
      if (!live) stream.close('signed-out');
    };
    // A browser reconnecting by itself says the last event it had: what it missed comes first.
    const lastEventId = request.headers['last-event-id'];
    const stream = pipeUserEvents(
      reply.raw,
      (listener) =>
        history.follow(holder.userId, typeof lastEventId === 'string' ? lastEventId : undefined, (event: UserEvent, id) => {
          if (event.type === 'sessions.changed') void endIfSignedOut();
          else listener(event, id);
        }),
      () => history.latestId(),
    );
    // Revocations this instance did not hear about end the stream too, one heartbeat later at most.
    const sessionCheck = setInterval(() => void endIfSignedOut(), HEARTBEAT_MS);
    sessionCheck.unref();
    const entry: OpenStream = { ...holder, stream };
    open.add(entry);
    reply.raw.once('close', () => {
      clearInterval(sessionCheck);
      stream.close();
      open.remove(entry);
    });
    // Signed out between the ticket and now: do not leave the stream open.
    await endIfSignedOut();
  });
}
