import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a connection may take, as Fastify's server options. Without them a client sending its
 * headers a byte at a time kept its socket as long as it liked (300 such sockets stayed 40 s).
 */
export const socketTimeouts = {
  // The headers of every request within 10 s (checked every 2 s): slow headers are cut off.
  http: { headersTimeout: 10_000, connectionsCheckingInterval: 2_000 },
  // The whole request, body included: a 100 MB import still fits at 3 Mbit/s.
  requestTimeout: 300_000,
  // Nothing sent either way for a minute closes the socket (event streams beat every 25 s).
  connectionTimeout: 60_000,
  // Idle keep-alive sockets close after this: above the 60 s a load balancer usually keeps one,
  // so it never reuses a socket just closed here.
  keepAliveTimeout: 65_000,
} satisfies Partial<FastifyHttpOptions<Server>>;

/** A request body that makes no progress for this long (nothing sent either way) is cut off. */
export const BODY_PROGRESS_TIMEOUT_MS = 30_000;

/**
 * While a request's body arrives its socket may be silent for 30 s at most, not the minute an idle
 * connection gets: a client that stops sending an upload halfway no longer holds its socket (a
 * slow upload held one 300 s). Once the body is in, the connection's own timeout is back.
 */
export function registerBodyProgressTimeout(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const hasBody = request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
    const socket = request.raw.socket as Socket | undefined;
    // Requests made in-process (app.inject) have no socket to time.
    if (!hasBody || request.raw.complete || typeof socket?.setTimeout !== 'function') return;
    socket.setTimeout(BODY_PROGRESS_TIMEOUT_MS);
    request.raw.once('end', () => socket.setTimeout(socketTimeouts.connectionTimeout));
  });
}

/** At most `maxConnections` open sockets: Node closes any beyond it as it arrives. */
export function capConnections(app: FastifyInstance, maxConnections: number): void {
  app.server.maxConnections = maxConnections;
}
