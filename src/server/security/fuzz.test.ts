import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as accountDeletion from '../../shared/account-deletion';
import * as admin from '../../shared/admin';
import * as authSchemas from '../../shared/auth-schemas';
import * as journal from '../../shared/journal';
import * as profile from '../../shared/profile';
import * as signInByText from '../../shared/sign-in-by-text';
import * as smsSchemas from '../sms/schemas';
import { createEntry, journalUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { bearer, buildUser, signIn, uniqueIp } from '../test/factories';
import { routeRecorder, type RegisteredRoute } from '../test/registered-routes';

/**
 * Random requests to every registered route, shaped by every request schema: the field names the
 * schemas know, filled with values of every type and edge (huge, empty, Unicode, nested, negative),
 * plus malformed bodies and query strings. No answer may be a server error, and none may hang.
 * Fixed seed and bounded runs, so it takes seconds and fails the same way every time.
 */
const SEED = 20261123;
const RUNS_PER_ROUTE = 25;
const ANSWER_WITHIN_MS = 5_000;

/** Every field name of every exported object schema in these modules. */
function fieldNames(...modules: Array<Record<string, unknown>>): string[] {
  const names = new Set<string>();
  const visit = (schema: unknown, depth: number) => {
    if (depth > 3 || !(schema instanceof z.ZodType)) return;
    if (schema instanceof z.ZodObject) {
      for (const [key, inner] of Object.entries(schema.shape as Record<string, unknown>)) {
        names.add(key);
        visit(inner, depth + 1);
      }
    }
  };
  for (const module of modules) for (const value of Object.values(module)) visit(value, 0);
  return [...names].sort();
}

const FIELDS = fieldNames(accountDeletion, admin, authSchemas, journal, profile, signInByText, smsSchemas);

const edgeString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', 'DELETE', 'true', 'false', 'null', '0', '-1', '1e309', 'NaN', '2026-02-30', '2026-11-23', '9999-12-31T23:59:59Z', '../../etc/passwd', '%00', '\u0000', '\ud800', '<script>alert(1)</script>', "' OR 1=1 --", '{"a":', 'x'.repeat(20_000), '+15555550100', 'a@b.c', 'monthly', 'yearly', 'all', 'sms', 'web', 'pdf', 'txt', 'global', 'local', 'password', 'refresh_token', 'link'),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small' },
    edgeString,
    fc.integer(),
    fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, 1e308, -0.5),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('any'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...FIELDS), tie('any'), { maxKeys: 3 }),
  ),
})).any;

/** A JSON body with the schemas' field names, raw JSON of any shape, or text that is not JSON at all. */
const body = fc.oneof(
  { arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }).map((o) => ({ json: o })), weight: 6 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((o) => ({ json: o })), weight: 2 },
  { arbitrary: fc.constantFrom('{', '{"content":', '[]]', 'null', '"', '\u0000', 'a=b&c', '{"__proto__":{"isAdmin":true}}').map((raw) => ({ raw })), weight: 1 },
);
const query = fc.dictionary(fc.constantFrom(...FIELDS, 'ticket', 'verification_token', 'cursor', 'page'), edgeString, { maxKeys: 4 });
/** A path segment as a client may send it: a lone surrogate becomes the bytes no UTF-8 decoder accepts. */
const pathSegment = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
};
const pathParam = fc.oneof(fc.uuid(), edgeString.filter((s) => s.length > 0 && s.length < 300), fc.constantFrom('REAL_ENTRY'));

let t: TestApp;
// Every route the app registers, as Fastify adds it.
const routes = routeRecorder();
let adminToken: string;

beforeAll(async () => {
  t = await buildTestApp({}, { onRoute: routes.onRoute });
  t.clock.set(new Date('2026-11-20T15:00:00Z'));
  const adminUser = await buildUser(t, { isAdmin: true });
  adminToken = await signIn(t, adminUser);
});

afterAll(async () => {
  await t?.close();
});

/** Routes that answer a signed-in caller with an open stream: fuzzed without a session only. */
const STREAMS = new Set(['GET /api/events', 'GET /api/auth/verification-events']);

async function fuzzRoute(route: RegisteredRoute) {
  const key = `${route.method} ${route.url}`;
  // A fresh account per route: a fuzzed sign-out or account deletion must not spill into the next.
  const user = await journalUser(t);
  const entry = await createEntry(t, user, { content: 'A day to fuzz.' });
  const token = STREAMS.has(key) ? undefined : route.url.startsWith('/api/admin') ? adminToken : user.token;

  await fc.assert(
    fc.asyncProperty(body, query, pathParam, pathParam, fc.boolean(), async (payload, params, id, photoId, signedIn) => {
      const url =
        route.url.replace(':id', pathSegment(id === 'REAL_ENTRY' ? entry.id : id)).replace(':photoId', pathSegment(photoId)).replace('*', 'fuzz/page') +
        (Object.keys(params).length ? `?${new URLSearchParams(params as Record<string, string>)}` : '');
      const withBody = route.method !== 'GET';
      const headers: Record<string, string> = { ...(signedIn && token ? bearer(token) : {}) };
      let bodyText: string | undefined;
      if (withBody) {
        headers['content-type'] = 'application/json';
        bodyText = 'raw' in payload ? payload.raw : JSON.stringify(payload.json);
      }
      const answer = t.app.inject({ method: route.method as 'GET', url, headers, remoteAddress: uniqueIp(), ...(bodyText !== undefined ? { payload: bodyText } : {}) });
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${key} did not answer within ${ANSWER_WITHIN_MS} ms: ${url}`)), ANSWER_WITHIN_MS);
      });
      try {
        const res = await Promise.race([answer, hung]);
        if (res.statusCode >= 500) throw new Error(`${key} answered ${res.statusCode} to ${url} ${bodyText ?? ''}: ${res.body.slice(0, 300)}`);
      } finally {
        clearTimeout(timer);
      }
    }),
    { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
  );
}

describe('fuzzing every route and request schema', () => {
  it('knows the schemas it draws field names from', () => {
    for (const field of ['content', 'title', 'tags', 'entry_date', 'email', 'password', 'confirmationText']) expect(FIELDS).toContain(field);
  });

  it('never answers with a server error and never hangs', { timeout: 180_000 }, async () => {
    const registered = routes.routes();
    expect(registered.length).toBeGreaterThan(40);
    const failures: string[] = [];
    for (const route of registered) {
      try {
        await fuzzRoute(route);
      } catch (error) {
        failures.push(String((error as Error).cause ?? error).slice(0, 600));
      }
    }
    expect(failures).toEqual([]);
  });
});
