import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { countHits, hit, isLimited, rateLimitKey, recordHit, sweepRateLimitHits } from './rate-limit';
import { buildTestApp, type TestApp } from './test/app';

const MINUTE = 60_000;

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const ctx = () => t.app.ctx;
  const freshKey = () => rateLimitKey('test', randomBytes(8).toString('hex'));
  const rule = { limit: 3, windowMs: 15 * MINUTE };

  it('allows hits up to the limit and refuses the next', async () => {
    const key = freshKey();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await hit(ctx(), key, rule));
    expect(answers).toEqual([true, true, true, false, false]);
  });

  it('does not count refused hits, so retrying does not extend the wait', async () => {
    const key = freshKey();
    for (let i = 0; i < 6; i++) await hit(ctx(), key, rule);
    expect(await countHits(ctx(), key, rule.windowMs)).toBe(3);
  });

  it('slides the window with the clock', async () => {
    const key = freshKey();
    await hit(ctx(), key, rule);
    t.clock.advance(10 * MINUTE);
    await hit(ctx(), key, rule);
    await hit(ctx(), key, rule);
    expect(await hit(ctx(), key, rule)).toBe(false);
    t.clock.advance(5 * MINUTE + 1);
    expect(await hit(ctx(), key, rule)).toBe(true);
    expect(await hit(ctx(), key, rule)).toBe(false);
  });

  it('keeps keys apart', async () => {
    const a = freshKey();
    const b = freshKey();
    for (let i = 0; i < 3; i++) await hit(ctx(), a, rule);
    expect(await hit(ctx(), a, rule)).toBe(false);
    expect(await hit(ctx(), b, rule)).toBe(true);
  });

  it('counts failures recorded after the fact', async () => {
    const key = freshKey();
    for (let i = 0; i < 3; i++) {
      expect(await isLimited(ctx(), key, rule)).toBe(false);
      await recordHit(ctx(), key);
    }
    expect(await isLimited(ctx(), key, rule)).toBe(true);
  });

  it('never stores the subject in the clear', async () => {
    const key = rateLimitKey('signup-email', 'Someone@Example.com');
    expect(key).toBe(rateLimitKey('signup-email', 'someone@example.com'));
    expect(key).toMatch(/^signup-email:[0-9a-f]{64}$/);
  });

  it('sweeps hits older than a day', async () => {
    const key = freshKey();
    const now = t.clock.now();
    t.clock.set(new Date(Date.now() - 2 * 24 * 60 * MINUTE));
    await recordHit(ctx(), key);
    t.clock.set(now);
    await recordHit(ctx(), key);
    await sweepRateLimitHits(ctx());
    const rows = await ctx().db.selectFrom('rate_limit_hits').select('id').where('key', '=', key).execute();
    expect(rows).toHaveLength(1);
  });
});
