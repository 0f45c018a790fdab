import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../shared/messages';
import { currentUser, requireUser } from '../auth/authenticate';
import { hasLiveSession } from '../auth/token-repo';
import { rateLimited, unauthorized } from '../errors';
import { hit, rateLimitKey, type RateLimit } from '../rate-limit';
import type { UserEvent } from '../events';
import { OpenStreams, type OpenStream } from './open-streams';
import { HEARTBEAT_MS, pipeUserEvents } from './stream';
import { issueStreamTicket, redeemStreamTicket, type StreamHolder } from './tickets';

/**
 * Stream tickets a user may take: a page asks for one when it opens its stream and again at most
 * every 5 s while it cannot, a few tabs at once stay well within it.
 */
const STREAM_TICKETS_PER_USER: RateLimit = { limit: 30, windowMs: 60_000 };

/** Whose stream this is: from a single-use `?ticket=`, or a bearer header (clients that can send one). */
async function streamHolder(request: FastifyRequest, reply: FastifyReply): Promise<StreamHolder> {
  const ticket = (request.query as { ticket?: unknown }).ticket;
  if (typeof ticket === 'string' && ticket) {
    const holder = await redeemStreamTicket(request.server.ctx, ticket);
    if (!holder) throw unauthorized(messages.auth.sessionExpired);
    return holder;
  }
  await requireUser(request, reply);
  const user = currentUser(request);
  return { userId: user.id, sessionFamily: user.sessionFamily };
}

/**
 * /api/events: the user's realtime channel (server-sent events). POST /ticket trades the bearer
 * token for a single-use ticket; GET /?ticket= opens the stream. A stream ends with its session:
 * at sign-out (its own, or every session) and at the latest one heartbeat after a revocation.
 */
export async function eventRoutes(app: FastifyInstance): Promise<void> {
  const ctx = app.ctx;
  const open = new OpenStreams();
  // Open streams would hold the server up on close; end them first.
  app.addHook('preClose', async () => open.closeAll());

  app.post('/ticket', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    if (!(await hit(ctx, rateLimitKey('stream-ticket', user.id), STREAM_TICKETS_PER_USER))) throw rateLimited(messages.generic.rateLimited);
    return { ticket: await issueStreamTicket(ctx, { userId: user.id, sessionFamily: user.sessionFamily }) };
  });

  app.get('/', async (request, reply) => {
    const holder = await streamHolder(request, reply);
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
      if (!live) stream.close();
    };
    const stream = pipeUserEvents(reply.raw, (listener) =>
      ctx.events.subscribe(holder.userId, (event: UserEvent) => {
        if (event.type === 'sessions.changed') void endIfSignedOut();
        else listener(event);
      }),
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
