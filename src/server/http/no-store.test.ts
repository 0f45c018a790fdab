import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, buildUser, signIn } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';

describe('API answers are never cached', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-11-23T17:00:00.000Z'));
  });
  afterAll(() => t.close());

  it('marks every answer with user data private, no-store', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    const api = apiClient(t);
    const answers = [
      await api.get('/api/entries', token),
      await api.get('/api/profile', token),
      await api.get('/api/stats', token),
      await api.get('/api/auth/user', token),
      await api.get('/api/subscription', token),
      await api.post('/api/auth/token', { grant_type: 'password', email: user.email, password: user.password }),
      await api.post('/api/events/ticket', {}, token),
    ];
    for (const answer of answers) {
      expect(answer.status).toBeLessThan(300);
      expect(answer.headers['cache-control']).toBe('private, no-store');
    }
  });

  it('marks error answers too', async () => {
    const api = apiClient(t);
    for (const answer of [await api.get('/api/entries'), await api.get('/api/no-such-thing'), await api.post('/api/auth/token', { grant_type: 'password', email: 'x@example.com', password: 'Wrong-pass-1' })]) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.headers['cache-control']).toBe('private, no-store');
    }
  });
});
