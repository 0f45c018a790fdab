import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { buildTestApp, type TestApp } from '../test/app';
import { apiClient, buildUser, signIn, signInSession } from '../test/factories';

const DAY_MS = 86_400_000;

// The journal's gate answers in one query what the session check and the access check did apart:
// each way in and each way out of the journal, for the list and for On This Day.
describe.each(['/api/entries', '/api/on-this-day'])('the journal gate at %s', (url) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const api = () => apiClient(t);

  it('lets in a live session with a running trial', async () => {
    const user = await buildUser(t);
    expect((await api().get(url, await signIn(t, user))).status).toBe(200);
  });

  it('asks for sign-in without a token, and for a new sign-in with a broken one', async () => {
    expect((await api().get(url)).body).toEqual({ error: { code: 'UNAUTHORIZED', message: messages.auth.notSignedIn } });
    const broken = await api().get(url, 'not-a-token');
    expect(broken.status).toBe(401);
    expect(broken.body.error.message).toBe(messages.auth.sessionExpired);
  });

  it('shuts out a session that signed out, and only that one', async () => {
    const user = await buildUser(t);
    const phone = await signInSession(t, user);
    const laptop = await signInSession(t, user);
    expect((await api().post('/api/auth/logout', {}, phone.access_token)).status).toBeLessThan(300);
    const after = await api().get(url, phone.access_token);
    expect(after.status).toBe(401);
    expect(after.body.error.message).toBe(messages.auth.sessionExpired);
    expect((await api().get(url, laptop.access_token)).status).toBe(200);
  });

  it('shuts out a deleted account', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    await t.app.ctx.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect((await api().get(url, token)).status).toBe(401);
  });

  it('answers 402 when the trial has ended, and when there is no subscriber row at all', async () => {
    const ended = await buildUser(t, { trialEnd: new Date(t.clock.now().getTime() - DAY_MS) });
    const res = await api().get(url, await signIn(t, ended));
    expect(res.status).toBe(402);
    expect(res.body.error).toEqual({ code: 'ACCESS_REQUIRED', message: messages.entries.accessRequired });

    const bare = await buildUser(t);
    await t.app.ctx.db.deleteFrom('subscribers').where('user_id', '=', bare.id).execute();
    expect((await api().get(url, await signIn(t, bare))).status).toBe(402);
  });
});

describe('the journal gate and the journal it reads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('shows each change at once: the revision it reads is the one the journal is at', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    const api = apiClient(t);
    expect((await api.get('/api/entries', token)).body.entries).toEqual([]);
    const first = await api.post('/api/entries', { content: 'first words' }, token);
    expect(first.status).toBe(201);
    expect((await api.get('/api/entries', token)).body.entries.map((e: { content: string }) => e.content)).toEqual(['first words']);
    expect((await api.patch(`/api/entries/${first.body.id}`, { content: 'changed words' }, token)).status).toBe(200);
    expect((await api.get('/api/entries', token)).body.entries.map((e: { content: string }) => e.content)).toEqual(['changed words']);
    expect((await api.delete(`/api/entries/${first.body.id}`, token)).status).toBeLessThan(300);
    expect((await api.get('/api/entries', token)).body.entries).toEqual([]);
  });
});
