import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isWebRoute, prerenderedFile } from '../shared/routes';

/** Where `npm run build` puts the web app. */
export const WEB_DIST = resolve('dist/web');

const API_PREFIXES = ['/api/', '/webhooks/', '/media/', '/healthz'];

/**
 * Serves the built web app: hashed assets, pre-rendered public pages, and the app shell for every
 * other page route. Unknown paths get the shell with a 404 status (the app shows its 404 page).
 */
export async function webRoutes(app: FastifyInstance, opts: { serveWeb: boolean }): Promise<void> {
  const shellPath = join(WEB_DIST, 'index.html');
  const available = opts.serveWeb && existsSync(shellPath);
  if (available) {
    await app.register(fastifyStatic, { root: WEB_DIST, wildcard: false, index: false, maxAge: '1y', immutable: true });
  }
  const cache = new Map<string, string>();
  const html = (file: string) => {
    let text = cache.get(file);
    if (text === undefined) {
      text = readFileSync(join(WEB_DIST, file), 'utf8');
      cache.set(file, text);
    }
    return text;
  };

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (!wantsPage || API_PREFIXES.some((p) => path.startsWith(p) || path === p.replace(/\/$/, ''))) {
      return reply.status(404).send({ error: { code: 'NOT_FOUND', message: 'Not found' } });
    }
    if (!available) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build` (npm start does it for you).');
    }
    const pre = prerenderedFile(path);
    const file = pre && existsSync(join(WEB_DIST, pre)) ? pre : 'index.html';
    return reply
      .status(isWebRoute(path) ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html(file));
  });
}
