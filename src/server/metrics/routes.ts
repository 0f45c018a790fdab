import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../errors';

/** Requests no route matched are counted under one label, so odd URLs cannot flood the metrics. */
const UNMATCHED_ROUTE = 'unmatched';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** True when the request carries `Authorization: Bearer METRICS_TOKEN`; never when no token is configured. */
function hasMetricsToken(request: FastifyRequest, expected: string | undefined): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (!expected || !given) return false;
  // Equal-length digests: the comparison takes the same time whatever the guess.
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Counts every request by its route pattern and times it, and serves GET /metrics in Prometheus
 * text format to a scraper holding METRICS_TOKEN.
 */
export function registerMetrics(app: FastifyInstance): void {
  const metrics = app.ctx.metrics;
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    metrics.httpRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', async (request, reply) => {
    if (!hasMetricsToken(request, app.ctx.config.metricsToken)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw unauthorized('A valid metrics token is required.');
    }
    const registry = metrics.registry();
    const body = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(body);
  });
}
