import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../ids';
import { jobDefinitions } from '../jobs/definitions';
import { buildTestApp, type TestApp } from '../test/app';
import { bearer, buildUser, signIn } from '../test/factories';
import { deleteExpiredRefreshTokens, EXPIRED_TOKEN_KEPT_DAYS } from './expired-sessions';

const DAY = 86_400_000;

describe('expired refresh tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    // The test databases are shared between test files on PostgreSQL: this file lives in a year of
    // its own, so the job deletes only tokens it wrote.
    t.clock.set(new Date('2001-03-15T12:00:00Z'));
  });
  afterAll(() => t.close());

  const tokensOf = async (userId: string) =>
    (await t.app.ctx.db.selectFrom('refresh_tokens').select('token_hash').where('user_id', '=', userId).orderBy('token_hash').execute()).map((r) => r.token_hash);

  /** An exchanged token of an old session of the user, expired `daysAgo` days ago. */
  const pastToken = (userId: string, hash: string, daysAgo: number) => {
    const expired = new Date(t.clock.now().getTime() - daysAgo * DAY);
    const issued = new Date(expired.getTime() - 30 * DAY).toISOString();
    return { id: newId(), user_id: userId, token_hash: hash, family_id: `old-${userId}`, rotated_at: issued, revoked_at: null, expires_at: expired.toISOString(), created_at: issued };
  };

  it(`deletes tokens expired over ${EXPIRED_TOKEN_KEPT_DAYS} days ago and keeps the rest, and the live session works on`, async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    const [live] = await tokensOf(user.id);
    await t.app.ctx.db
      .insertInto('refresh_tokens')
      .values([pastToken(user.id, 'a-long-expired', EXPIRED_TOKEN_KEPT_DAYS + 1), pastToken(user.id, 'b-lately-expired', EXPIRED_TOKEN_KEPT_DAYS - 1)])
      .execute();

    expect(await deleteExpiredRefreshTokens(t.app.ctx)).toBe(1);
    expect(await tokensOf(user.id)).toEqual(['b-lately-expired', live].sort());
    expect((await t.app.inject({ method: 'GET', url: '/api/entries', headers: bearer(token) })).statusCode).toBe(200);
    expect(await deleteExpiredRefreshTokens(t.app.ctx)).toBe(0);
  });

  it('deletes a long backlog in batches, as the hourly job', async () => {
    const user = await buildUser(t);
    const backlog = Array.from({ length: 2_345 }, (_, i) => pastToken(user.id, `backlog-${i}`, EXPIRED_TOKEN_KEPT_DAYS + 1 + (i % 300)));
    for (let i = 0; i < backlog.length; i += 500) await t.app.ctx.db.insertInto('refresh_tokens').values(backlog.slice(i, i + 500)).execute();

    const job = jobDefinitions.find((j) => j.name === 'expired-sessions');
    expect(job?.everyMs).toBe(3_600_000);
    expect(await job!.run(t.app.ctx)).toBe(2_345);
    expect(await tokensOf(user.id)).toEqual([]);
  });
});
