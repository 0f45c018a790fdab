import type { FastifyInstance } from 'fastify';

/**
 * Every /api answer carries someone's data (or says whether they have any): no browser, proxy or
 * shared cache may keep it. Answers that already forbid storing keep their own header.
 */
export function registerNoStoreForApi(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/') && !String(reply.getHeader('cache-control') ?? '').includes('no-store')) {
      reply.header('cache-control', 'private, no-store');
    }
    done(null, payload);
  });
}
