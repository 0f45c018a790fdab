import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app';
import { securityHeaders } from './headers';

// What helmet sent for our options when it ran per request: the headers must stay exactly these.
const EXPECTED = {
  'content-security-policy':
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'none';img-src 'self' data: blob:;object-src 'none';script-src 'self' 'wasm-unsafe-eval';script-src-attr 'none';style-src 'self' 'unsafe-inline';media-src 'self' blob:;connect-src 'self'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['an answer', '/healthz', 200],
    ['an unknown API path', '/api/nothing-here', 404],
    ['a refused request', '/api/entries', 401],
  ])('are on %s', async (_what, url, status) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(status);
    expect(res.headers).toMatchObject(EXPECTED);
  });

  it('are worked out from helmet once, with nothing left out or added', () => {
    expect(Object.fromEntries(securityHeaders({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false, strictTransportSecurity: false }))).toEqual(
      Object.fromEntries(Object.entries(EXPECTED).filter(([name]) => name !== 'content-security-policy' && name !== 'strict-transport-security')),
    );
  });
});
