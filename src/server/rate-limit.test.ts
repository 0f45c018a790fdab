import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { jobDefinitions } from './jobs/definitions';
import { clearHitsByPrefix, countHits, hit, isLimited, rateLimitKey, recordHit, releaseHits, reserveHits, sweepRateLimitHits } from './rate-limit';
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

  it('allows exactly the limit in a parallel burst', async () => {
    const key = freshKey();
    const answers = await Promise.all(Array.from({ length: 30 }, () => hit(ctx(), key, rule)));
    expect(answers.filter(Boolean)).toHaveLength(3);
    expect(await countHits(ctx(), key, rule.windowMs)).toBe(3);
  });

  it('reserves from several keys all or none, and gives reservations back', async () => {
    const roomy = freshKey();
    const full = freshKey();
    for (let i = 0; i < 3; i++) await hit(ctx(), full, rule);
    expect(await reserveHits(ctx(), [{ key: roomy, rule }, { key: full, rule }])).toBeNull();
    expect(await countHits(ctx(), roomy, rule.windowMs)).toBe(0);

    const reserved = await reserveHits(ctx(), [{ key: roomy, rule }, { key: freshKey(), rule }]);
    expect(reserved).toHaveLength(2);
    expect(await countHits(ctx(), roomy, rule.windowMs)).toBe(1);
    await releaseHits(ctx(), reserved!);
    expect(await countHits(ctx(), roomy, rule.windowMs)).toBe(0);
  });

  it('forgets every key under a prefix, and only those', async () => {
    const prefix = `test-pair:${randomBytes(8).toString('hex')}:`;
    const other = freshKey();
    await hit(ctx(), `${prefix}a`, rule);
    await hit(ctx(), `${prefix}b`, rule);
    await hit(ctx(), other, rule);
    await clearHitsByPrefix(ctx(), prefix);
    expect(await countHits(ctx(), `${prefix}a`, rule.windowMs)).toBe(0);
    expect(await countHits(ctx(), `${prefix}b`, rule.windowMs)).toBe(0);
    expect(await countHits(ctx(), other, rule.windowMs)).toBe(1);
  });

  it('never stores the subject in the clear', async () => {
    const key = rateLimitKey('signup-email', 'Someone@Example.com');
    expect(key).toBe(rateLimitKey('signup-email', 'someone@example.com'));
    expect(key).toMatch(/^signup-email:[0-9a-f]{64}$/);
  });

  it('sweeps hits older than a day in a background job, never in a request', async () => {
    const key = freshKey();
    const hitsKept = async () => (await ctx().db.selectFrom('rate_limit_hits').select('id').where('key', '=', key).execute()).length;
    const now = t.clock.now();
    t.clock.set(new Date(Date.now() - 2 * 24 * 60 * MINUTE));
    await recordHit(ctx(), key);
    t.clock.set(now);
    // However many hits come after it, none of them sweeps.
    for (let i = 0; i < 200; i++) await recordHit(ctx(), key);
    for (let i = 0; i < 200; i++) await hit(ctx(), freshKey(), rule);
    expect(await hitsKept()).toBe(201);

    const job = jobDefinitions.find((j) => j.name === 'rate-limit-hits');
    expect(job?.everyMs).toBe(10 * MINUTE);
    expect(await job!.run(ctx())).toBeGreaterThanOrEqual(1);
    expect(await hitsKept()).toBe(200);
    expect(await sweepRateLimitHits(ctx())).toBe(0);
  });
});
