import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { authTabTarget } from '../shared/auth-tab';
import { isWebRoute, NOT_FOUND_PAGE_FILE, prerenderedFile } from '../shared/routes';
import { preferredEncoding, varyOnEncoding, type ContentEncoding } from './compression/index';
import { devPageOpen } from './dev/index';

/** Where `npm run build` puts the web app. */
const WEB_DIST = resolve('dist/web');

const API_PREFIXES = ['/api/', '/webhooks/', '/media/', '/healthz'];

/**
 * Serves the built web app: hashed assets, pre-rendered public pages, and the app shell for every
 * other page route. Unknown paths get the shell with a 404 status (the app shows its 404 page).
 */
export async function webRoutes(app: FastifyInstance, opts: { serveWeb: boolean; root?: string }): Promise<void> {
  const root = opts.root ?? WEB_DIST;
  const shellPath = join(root, 'index.html');
  const available = opts.serveWeb && existsSync(shellPath);
  if (available) {
    // preCompressed: the build wrote .br and .gz beside each asset (scripts/precompress.mjs). Source
    // maps stay on the server (bench/bundle-size.mjs reads them): they are the app's source, 2.4 MB.
    await app.register(fastifyStatic, {
      root,
      // Files are looked up on each request, not listed at start: a build made while the server
      // runs is served whole (its new chunks, and the previous build's it keeps).
      wildcard: true,
      index: false,
      maxAge: '1y',
      immutable: true,
      preCompressed: true,
      // A folder (the home page's `/` among them) is the page routes' to answer below: left to the
      // static files, a client that takes no compressed copy got a bare 403 for the home page.
      allowedPath: (pathName) => !pathName.endsWith('.map') && !pathName.endsWith('/'),
    });
  }
  app.addHook('onSend', async (_request, reply, payload) => {
    varyOnEncoding(reply);
    return payload;
  });
  // Pages are served as the build left them on disk: a new build while the server runs hands out its
  // own shell, whose scripts exist, never a remembered one whose scripts were replaced. Each page is
  // read again only when its file changed.
  const cache = new Map<string, { stamp: string; body: Buffer }>();
  const html = (file: string, encoding?: ContentEncoding): Buffer | null => {
    const key = encoding ? `${file}.${encoding === 'br' ? 'br' : 'gz'}` : file;
    const path = join(root, key);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return null;
    const stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    const hit = cache.get(key);
    if (hit?.stamp === stamp) return hit.body;
    const body = readFileSync(path);
    cache.set(key, { stamp, body });
    return body;
  };

  // Old links (/auth?tab=signin, /auth?tab=signup) go straight to the page they meant.
  app.get('/auth', async (request, reply) => {
    const { tab } = request.query as { tab?: unknown };
    return reply.redirect(authTabTarget(typeof tab === 'string' ? tab : undefined), 301);
  });

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (!wantsPage || API_PREFIXES.some((p) => path.startsWith(p) || path === p.replace(/\/$/, ''))) {
      return reply.status(404).send({ error: { code: 'NOT_FOUND', message: 'Not found' } });
    }
    if (!available) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build` (npm start does it for you).');
    }
    // Simulator pages are pages only while their simulator runs, in development (dev/index.ts).
    const known = isWebRoute(path) && (!path.startsWith('/dev/') || devPageOpen(app.ctx, path, request));
    // A page the build rendered (a public page, or the 404 page) is served as that HTML; others get the app shell.
    const pre = known ? prerenderedFile(path) : NOT_FOUND_PAGE_FILE;
    const file = pre && html(pre) ? pre : 'index.html';
    reply.status(known ? 200 : 404).header('cache-control', 'no-cache').type('text/html; charset=utf-8');
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    const compressed = encoding ? html(file, encoding) : null;
    if (encoding && compressed) return reply.header('content-encoding', encoding).send(compressed);
    return reply.send(html(file));
  });
}
