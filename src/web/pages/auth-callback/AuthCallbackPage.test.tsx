import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, fakeSession, installFakeApi, networkDown, reply, type FakeApi } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { RequireAuth } from '../../features/auth/guards';
import { renderApp, markerRoute } from '../../test/render-app';
import { AuthCallbackPage } from './AuthCallbackPage';

const routes = [
  { path: '/auth/callback', element: <AuthCallbackPage /> },
  { path: '/journal', element: <RequireAuth><p>journal page</p></RequireAuth> },
  markerRoute('/sign-in'),
];

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the e-mail confirmation link', () => {
  it('confirms the address with POST /api/auth/verify {token_hash, type: "email"}, once', async () => {
    api.on('POST /api/auth/verify', reply(200, { email_verified: true }));
    renderApp(routes, ['/auth/callback?token_hash=hash-1&type=email'], { strict: true });
    expect(await screen.findByRole('heading', { name: messages.emailVerification.confirmed })).toBeInTheDocument();
    expect(api.requestsTo('POST /api/auth/verify').map((r) => r.body)).toEqual([{ token_hash: 'hash-1', type: 'email' }]);
    expect(api.requestsTo('POST /api/auth/token')).toHaveLength(0);
  });

  it('says when the link is used or expired', async () => {
    api.on('POST /api/auth/verify', apiError(400, 'INVALID_TOKEN', messages.emailVerification.invalidLink));
    renderApp(routes, ['/auth/callback?token_hash=old&type=email']);
    expect(await screen.findByText(messages.emailVerification.invalidLink)).toBeInTheDocument();
  });
});

describe('auth callback page', () => {
  it('trades the link token for a session and opens the journal', async () => {
    api.on('POST /api/auth/token', reply(200, fakeSession({ access_token: 'from-link' })));
    const app = renderApp(routes, ['/auth/callback?token=link-1']);
    expect(await screen.findByText('journal page')).toBeInTheDocument();
    expect(app.path()).toBe('/journal');
    expect(api.requestsTo('POST /api/auth/token')).toHaveLength(1);
    expect(api.requestsTo('POST /api/auth/token')[0]!.body).toEqual({ grant_type: 'link', token: 'link-1' });
    expect(sessionStore.get()?.access_token).toBe('from-link');
  });

  it('uses the single-use token once, even when React mounts the page twice', async () => {
    api.on('POST /api/auth/token', reply(200, fakeSession()));
    renderApp(routes, ['/auth/callback?token=link-1'], { strict: true });
    expect(await screen.findByText('journal page')).toBeInTheDocument();
    expect(api.requestsTo('POST /api/auth/token')).toHaveLength(1);
  });

  it('explains an invalid link and points to sign-in', async () => {
    api.on('POST /api/auth/token', apiError(401, 'UNAUTHORIZED', 'This sign-in link is invalid or has expired.'));
    renderApp(routes, ['/auth/callback?token=used']);
    expect(await screen.findByText(messages.auth.invalidLink)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.reset.goToSignIn })).toHaveAttribute('href', '/sign-in');
  });

  it('explains a missing token without calling the server', () => {
    renderApp(routes, ['/auth/callback']);
    expect(screen.getByText(messages.auth.invalidLink)).toBeInTheDocument();
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('offers another try when the server cannot be reached', async () => {
    api.on('POST /api/auth/token', networkDown);
    renderApp(routes, ['/auth/callback?token=link-1']);
    expect(await screen.findByText(messages.signIn.connection)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
