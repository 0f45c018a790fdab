import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { USER_VERIFIED_EVENT, verificationTokenSchema } from '../../shared/auth-schemas';
import { messages, titled } from '../../shared/messages';
import { hashToken } from '../crypto/tokens';
import { rateLimited } from '../errors';
import { watchPhoneVerification } from './phone-verification';

// Proxies drop connections that stay silent; a comment line every 25 s keeps this one open.
const HEARTBEAT_MS = 25_000;

/**
 * Open streams this instance allows without a sign-in: a verification page needs one (a second tab,
 * a reconnect), and many people can share one address (offices, carriers).
 */
export const VERIFICATION_STREAM_LIMITS = { perToken: 3, perClientAddress: 20 };

/** How many streams are open per key; `take` refuses past the limit. */
class OpenCounts {
  private readonly counts = new Map<string, number>();
  take(key: string, limit: number): boolean {
    const count = this.counts.get(key) ?? 0;
    if (count >= limit) return false;
    this.counts.set(key, count + 1);
    return true;
  }
  release(key: string): void {
    const count = (this.counts.get(key) ?? 1) - 1;
    if (count > 0) this.counts.set(key, count);
    else this.counts.delete(key);
  }
}

/**
 * GET /verification-events?verification_token=…: server-sent events for the (signed-out)
 * verification page. Sends USER_VERIFIED once the phone is verified, then ends the stream.
 */
export async function verificationEventRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const open = new Set<PassThrough>();
  const perToken = new OpenCounts();
  const perAddress = new OpenCounts();
  app.addHook('preClose', async () => {
    for (const stream of open) stream.end();
  });

  app.get('/verification-events', { schema: { querystring: verificationTokenSchema } }, async (request, reply) => {
    const { verification_token } = request.query;
    const tokenKey = hashToken(verification_token);
    const tooMany = () => rateLimited(titled(messages.signUp.tooManyAttemptsTitle, messages.signUp.tooManyAttempts));
    if (!perToken.take(tokenKey, VERIFICATION_STREAM_LIMITS.perToken)) throw tooMany();
    if (!perAddress.take(request.ip, VERIFICATION_STREAM_LIMITS.perClientAddress)) {
      perToken.release(tokenKey);
      throw tooMany();
    }
    const stream = new PassThrough();
    stream.write('retry: 2000\n: connected\n\n');
    let closed = false;
    let stopWatching: (() => void) | undefined;
    const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), HEARTBEAT_MS);
    const cleanUp = () => {
      if (closed) return;
      closed = true;
      perToken.release(tokenKey);
      perAddress.release(request.ip);
      clearInterval(heartbeat);
      stopWatching?.();
      open.delete(stream);
      stream.end();
    };
    open.add(stream);
    stream.on('close', cleanUp);
    reply.raw.on('close', cleanUp);
    try {
      stopWatching = await watchPhoneVerification(app.ctx, verification_token, () => {
        stream.write(`event: ${USER_VERIFIED_EVENT}\ndata: ${JSON.stringify({ verified: true })}\n\n`);
        cleanUp();
      });
    } catch (error) {
      cleanUp();
      throw error;
    }
    // Verified while we were subscribing: the stream is already done, stop listening too.
    if (closed) stopWatching();
    return reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-cache, no-transform')
      .header('x-accel-buffering', 'no')
      .send(stream);
  });
}
