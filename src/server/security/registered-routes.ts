import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  /** The full pattern, e.g. '/api/entries/:id'. */
  url: string;
}

const LINE = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/;

/**
 * Every route the app registered, read back from Fastify's own route tree (printRoutes), so a test
 * can hold a list of expectations against what is really served. HEAD routes Fastify adds to each
 * GET are left out; trailing-slash twins ('/api/entries/') fold into their path.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const prefixes: string[] = [];
  const seen = new Set<string>();
  const routes: RegisteredRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const url = (prefixes[depth - 1] ?? '') + match[2]!;
    prefixes[depth] = url;
    prefixes.length = depth + 1;
    for (const method of match[3]?.split(', ') ?? []) {
      if (method === 'HEAD') continue;
      const path = url.length > 1 ? url.replace(/\/$/, '') : url;
      const key = `${method} ${path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      routes.push({ method, url: path });
    }
  }
  return routes;
}
