import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './test/app';

describe('old sign-in and sign-up addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['/auth?tab=signin', '/sign-in'],
    ['/auth?tab=signup', '/sign-up'],
    ['/auth', '/sign-in'],
    ['/auth?tab=somethingelse', '/sign-in'],
    ['/auth?tab=signup&tab=signin', '/sign-in'],
  ])('%s goes to %s', async (url, target) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(target);
  });

  it('leaves the sign-in link page alone', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/auth/callback?token=abc' });
    expect(res.statusCode).not.toBe(301);
  });
});
