import type { RouteOptions } from 'fastify';

export interface RegisteredRoute {
  method: string;
  /** The full pattern, e.g. '/api/entries/:id'. */
  url: string;
}

/**
 * Every route the app registers, told by Fastify's onRoute hook as each is added (pass `onRoute`
 * to buildTestApp), so a test can hold a list of expectations against what is really served. HEAD
 * routes Fastify adds to each GET are left out; trailing-slash twins ('/api/entries/') fold into
 * their path.
 */
export function routeRecorder(): { onRoute(route: RouteOptions): void; routes(): RegisteredRoute[] } {
  const seen = new Set<string>();
  const routes: RegisteredRoute[] = [];
  return {
    onRoute(route) {
      const path = route.url.length > 1 ? route.url.replace(/\/$/, '') : route.url;
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        const key = `${method} ${path}`;
        if (seen.has(key)) continue;
        seen.add(key);
        routes.push({ method, url: path });
      }
    },
    routes: () => routes,
  };
}
