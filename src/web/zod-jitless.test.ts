import { afterEach, describe, expect, it, vi } from 'vitest';

/** Counts every `new Function(…)` (zod's eval probe and its compiled parsers) while a schema parses. */
async function functionConstructionsWhileParsing(setUp: () => Promise<unknown>): Promise<number> {
  vi.resetModules();
  let constructed = 0;
  const RealFunction = globalThis.Function;
  vi.stubGlobal(
    'Function',
    new Proxy(RealFunction, {
      construct(target, args) {
        constructed += 1;
        return Reflect.construct(target, args);
      },
    }),
  );
  await setUp();
  const { z } = await import('zod');
  z.object({ email: z.string(), remember: z.boolean() }).parse({ email: 'ada@example.com', remember: true });
  return constructed;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("zod in the browser never evaluates code (the CSP has no 'unsafe-eval')", () => {
  it('would probe with new Function without the setting (the control)', async () => {
    expect(await functionConstructionsWhileParsing(async () => undefined)).toBeGreaterThan(0);
  });

  it('does not once the app has loaded its zod setting', async () => {
    expect(await functionConstructionsWhileParsing(() => import('./zod-jitless'))).toBe(0);
  });
});
