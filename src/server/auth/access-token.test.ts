import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, buildUser, signInSession } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';
import { signAccessToken, verifyAccessToken } from './access-token';

const NOW = new Date('2026-11-23T17:00:00.000Z');
const seconds = Math.floor(NOW.getTime() / 1000);

interface Claims {
  exp?: boolean;
  iat?: boolean;
  iss?: string | null;
  aud?: string | null;
}

describe('access tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(NOW);
  });
  afterAll(() => t.close());

  const key = () => t.app.ctx.keys.accessToken;

  /** A token signed with the real key, with each standard claim present unless switched off. */
  const handMade = async (userId: string, sessionFamily: string, claims: Claims = {}) => {
    let jwt = new SignJWT({ sid: sessionFamily }).setProtectedHeader({ alg: 'HS256' }).setSubject(userId);
    if (claims.iat !== false) jwt = jwt.setIssuedAt(seconds);
    if (claims.exp !== false) jwt = jwt.setExpirationTime(seconds + 3600);
    if (claims.iss !== null) jwt = jwt.setIssuer(claims.iss ?? 'jotline');
    if (claims.aud !== null) jwt = jwt.setAudience(claims.aud ?? 'jotline-api');
    return jwt.sign(key());
  };

  it('carries exp, iat, issuer and audience, and verifies', async () => {
    const { token } = await signAccessToken(key(), { userId: 'u1', sessionFamily: 'f1' }, NOW);
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(payload).toMatchObject({ sub: 'u1', sid: 'f1', iat: seconds, exp: seconds + 3600, iss: 'jotline', aud: 'jotline-api' });
    expect(await verifyAccessToken(key(), token, NOW)).toEqual({ userId: 'u1', sessionFamily: 'f1' });
  });

  it('accepts a hand-made token with every claim (the control for the cases below)', async () => {
    expect(await verifyAccessToken(key(), await handMade('u1', 'f1'), NOW)).toEqual({ userId: 'u1', sessionFamily: 'f1' });
  });

  it.each<[string, Claims]>([
    ['no expiry', { exp: false }],
    ['no issue time', { iat: false }],
    ['no issuer', { iss: null }],
    ['another issuer', { iss: 'someone-else' }],
    ['no audience', { aud: null }],
    ['another audience', { aud: 'jotline-admin-tools' }],
  ])('refuses a token with %s', async (_name, claims) => {
    expect(await verifyAccessToken(key(), await handMade('u1', 'f1', claims), NOW)).toBeNull();
  });

  it('refuses an expired token', async () => {
    const { token } = await signAccessToken(key(), { userId: 'u1', sessionFamily: 'f1' }, NOW);
    expect(await verifyAccessToken(key(), token, new Date(NOW.getTime() + 3601_000))).toBeNull();
  });

  it('remembers a verified token no longer than it lives, and only under the key that signed it', async () => {
    const { token } = await signAccessToken(key(), { userId: 'u2', sessionFamily: 'f2' }, NOW);
    expect(await verifyAccessToken(key(), token, NOW)).toEqual({ userId: 'u2', sessionFamily: 'f2' });
    expect(await verifyAccessToken(key(), token, new Date(NOW.getTime() + 3599_000))).toEqual({ userId: 'u2', sessionFamily: 'f2' });
    expect(await verifyAccessToken(key(), token, new Date(NOW.getTime() + 3600_000))).toBeNull();
    expect(await verifyAccessToken(new Uint8Array(32).fill(7), token, NOW)).toBeNull();
    // A token changed by one character is checked in full, not taken for the one remembered.
    const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'AB' : 'AA');
    expect(await verifyAccessToken(key(), forged, NOW)).toBeNull();
  });

  it('keeps a never-expiring token for a live session out of the API', async () => {
    const user = await buildUser(t);
    const session = await signInSession(t, user);
    const family = JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString()).sid as string;
    const api = apiClient(t);
    expect((await api.get('/api/auth/user', await handMade(user.id, family))).status).toBe(200);
    const forever = await api.get('/api/auth/user', await handMade(user.id, family, { exp: false }));
    expect(forever.status).toBe(401);
  });
});
