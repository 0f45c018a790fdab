import type { FastifyInstance, FastifyRequest } from 'fastify';
import { messages } from '../../shared/messages';
import { verifyAccessToken } from '../auth/access-token';
import { unauthorized } from '../errors';
import { pipeUserEvents, type EventStream } from './stream';

/** The signed-in user from a bearer header or, since EventSource cannot set headers, `?access_token=`. */
async function streamUserId(request: FastifyRequest): Promise<string> {
  const ctx = request.server.ctx;
  const fromHeader = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const fromQuery = (request.query as { access_token?: unknown }).access_token;
  const token = fromHeader ?? (typeof fromQuery === 'string' ? fromQuery : undefined);
  if (!token) throw unauthorized(messages.auth.notSignedIn);
  const claims = await verifyAccessToken(ctx.keys.accessToken, token, ctx.clock.now());
  if (!claims) throw unauthorized(messages.auth.sessionExpired);
  const user = await ctx.db.selectFrom('users').select('id').where('id', '=', claims.userId).executeTakeFirst();
  if (!user) throw unauthorized(messages.auth.sessionExpired);
  return user.id;
}

/** GET /api/events: the user's realtime channel (server-sent events). */
export async function eventRoutes(app: FastifyInstance): Promise<void> {
  const open = new Set<EventStream>();
  // Open streams would hold the server up on close; end them first.
  app.addHook('preClose', async () => {
    for (const stream of open) stream.close();
  });

  app.get('/', async (request, reply) => {
    const userId = await streamUserId(request);
    reply.hijack();
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Tell nginx-style proxies not to buffer the stream.
      'x-accel-buffering': 'no',
    });
    const stream = pipeUserEvents(reply.raw, (listener) => app.ctx.events.subscribe(userId, listener));
    open.add(stream);
    reply.raw.once('close', () => {
      stream.close();
      open.delete(stream);
    });
  });
}
