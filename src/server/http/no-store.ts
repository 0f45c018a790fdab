import type { FastifyInstance } from 'fastify';

/**
 * Every /api answer carries someone's data (or says whether they have any): no browser, proxy or
 * shared cache may keep it. Answers that already forbid storing keep their own header.
 */
export function registerNoStoreForApi(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/')) return payload;
    const current = reply.getHeader('cache-control');
    if (!String(current ?? '').includes('no-store')) reply.header('cache-control', 'private, no-store');
    return payload;
  });
}
