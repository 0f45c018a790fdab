import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** What every answer carries: a strict content security policy and helmet's other headers. */
const SECURITY_HEADER_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      // libsodium's WebAssembly (the Vault) compiles only with this; it allows WebAssembly, not eval.
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      // sonner and Radix set inline styles at run time.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      // A Vault's voice notes play from blob: addresses once opened in the browser, as its photos show.
      mediaSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets for these options, worked out once. Nothing in them depends on the
 * request (no nonces), and building helmet's middleware for every request, as the Fastify plugin
 * did, was about a twentieth of an API request's CPU time.
 */
export function securityHeaders(options: HelmetOptions): ReadonlyArray<readonly [string, string]> {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => void headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => void headers.delete(name.toLowerCase()),
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return [...headers];
}

/**
 * Sets the security headers on the raw response as each request arrives, so every answer has them:
 * errors, static files and event streams (which write their own head) included.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions = SECURITY_HEADER_OPTIONS): void {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
