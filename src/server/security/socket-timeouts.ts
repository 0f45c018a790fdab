import type { FastifyHttpOptions } from 'fastify';
import type { Server } from 'node:http';

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
