import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeSession, installFakeApi, reply, type FakeApi } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { RequireAuth } from './guards';
import { renderApp, markerRoute } from '../../test/render-app';

const routes = [{ path: '/journal', element: <RequireAuth><p>journal page</p></RequireAuth> }, markerRoute('/sign-in'), markerRoute('/')];

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('session and guards', () => {
  it('sends a visitor without a session to sign-in, remembering the page', async () => {
    const app = renderApp(routes, ['/journal?day=2026-01-02']);
    expect(await screen.findByText('/sign-in page')).toBeInTheDocument();
    expect(app.router.state.location.state).toEqual({ from: { pathname: '/journal', search: '?day=2026-01-02', hash: '' } });
  });

  it('shows a loading state while an expired session is refreshed, then the page', async () => {
    sessionStore.set(fakeSession({ access_token: 'stale', expiresInSeconds: -10 }));
    let answer: (value: ReturnType<typeof reply>) => void = () => undefined;
    api.on('POST /api/auth/token', () => new Promise((resolve) => (answer = resolve)));
    renderApp(routes, ['/journal']);
    expect(screen.getAllByText('Loading...').length).toBeGreaterThan(0);
    await act(async () => answer(reply(200, fakeSession({ access_token: 'fresh' }))));
    expect(await screen.findByText('journal page')).toBeInTheDocument();
    expect(sessionStore.get()?.access_token).toBe('fresh');
  });

  it('signs out when the stored session can no longer be refreshed', async () => {
    sessionStore.set(fakeSession({ expiresInSeconds: -10 }));
    api.on('POST /api/auth/token', apiError(401, 'UNAUTHORIZED', 'Invalid refresh token'));
    renderApp(routes, ['/journal']);
    expect(await screen.findByText('/sign-in page')).toBeInTheDocument();
    expect(sessionStore.get()).toBeNull();
  });

  it('refreshes the token when under a minute remains, checking every 30 s', async () => {
    vi.useFakeTimers();
    sessionStore.set(fakeSession({ access_token: 'old', expiresInSeconds: 95 }));
    api.on('POST /api/auth/token', reply(200, fakeSession({ access_token: 'new' })));
    renderApp(routes, ['/journal']);
    await act(() => vi.advanceTimersByTimeAsync(30_000)); // 65 s left
    expect(api.requestsTo('POST /api/auth/token')).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(30_000)); // 35 s left
    expect(api.requestsTo('POST /api/auth/token')).toHaveLength(1);
    expect(sessionStore.get()?.access_token).toBe('new');
  });

  it('follows a sign-out in another tab', async () => {
    sessionStore.set(fakeSession());
    renderApp(routes, ['/journal']);
    expect(screen.getByText('journal page')).toBeInTheDocument();
    // Another tab removed the session: this tab hears about it through the storage event.
    localStorage.removeItem('jotline.session');
    act(() => void window.dispatchEvent(new StorageEvent('storage', { key: 'jotline.session' })));
    expect(await screen.findByText('/sign-in page')).toBeInTheDocument();
  });
});
