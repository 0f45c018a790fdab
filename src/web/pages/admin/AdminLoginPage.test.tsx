import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, fakeSession, installFakeApi, networkDown, reply, type FakeApi } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { renderApp } from '../../test/render-app';
import { AdminLoginPage } from './AdminLoginPage';
import { guarded, login, signInAsAdmin } from '../../test/admin';

const routes = [
  { path: '/admin/login', element: <AdminLoginPage /> },
  guarded('/admin/dashboard', <p>dashboard page</p>),
];

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function submit(email = 'boss@example.com', password = 'Journal123') {
  const user = userEvent.setup({ delay: null });
  if (email) await user.type(screen.getByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: messages.admin.signIn }));
}

describe('admin login', () => {
  it('is noindex and notes to use regular credentials', () => {
    renderApp(routes, ['/admin/login']);
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex, nofollow');
    expect(screen.getByText(messages.admin.credentialsNote)).toBeInTheDocument();
  });

  it('signs an admin in and opens the dashboard', async () => {
    api.on('POST /api/auth/token', reply(200, fakeSession({ email: 'boss@example.com' })));
    api.on('GET /api/admin/me', reply(200, { success: true, user: { id: 'user-1', email: 'boss@example.com' } }));
    const view = renderApp(routes, ['/admin/login']);
    await submit();
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
    expect(view.path()).toBe('/admin/dashboard');
    expect(api.requestsTo('POST /api/auth/token')[0]!.body).toMatchObject({ grant_type: 'password', email: 'boss@example.com' });
    expect(await screen.findByText(messages.admin.welcome)).toBeInTheDocument();
  });

  it('signs a non-admin out again with Access Denied', async () => {
    api.on('POST /api/auth/token', reply(200, fakeSession()));
    api.on('GET /api/admin/me', apiError(403, 'FORBIDDEN', 'Forbidden'));
    api.on('POST /api/auth/logout', reply(204));
    const view = renderApp(routes, ['/admin/login']);
    await submit();
    expect(await screen.findByText(messages.admin.accessDeniedTitle)).toBeInTheDocument();
    expect(screen.getByText(messages.admin.accessDenied)).toBeInTheDocument();
    expect(sessionStore.get()).toBeNull();
    expect(view.path()).toBe('/admin/login');
    await waitFor(() => expect(api.requestsTo('POST /api/auth/logout')).toHaveLength(1));
  });

  it("says 'Login Failed' with the server's message", async () => {
    api.on('POST /api/auth/token', apiError(400, 'INVALID_GRANT', 'Invalid login credentials'));
    renderApp(routes, ['/admin/login']);
    await submit();
    expect(await screen.findByText(messages.admin.loginFailedTitle)).toBeInTheDocument();
    expect(screen.getByText('Invalid login credentials')).toBeInTheDocument();
  });

  it("says 'Login Error' when the server cannot be reached", async () => {
    api.on('POST /api/auth/token', networkDown);
    renderApp(routes, ['/admin/login']);
    await submit();
    expect(await screen.findByText(messages.admin.loginErrorTitle)).toBeInTheDocument();
    expect(screen.getByText(messages.admin.loginError)).toBeInTheDocument();
  });

  it('requires email and password', async () => {
    renderApp(routes, ['/admin/login']);
    await submit('', '');
    expect(screen.getByText(messages.admin.emailRequired)).toBeInTheDocument();
    expect(screen.getByText(messages.admin.passwordRequired)).toBeInTheDocument();
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('sends an already signed-in admin to the dashboard', async () => {
    signInAsAdmin(api);
    renderApp(routes, ['/admin/login']);
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
  });
});

describe('RequireAdmin', () => {
  it('redirects a non-admin to the admin login', async () => {
    sessionStore.set(fakeSession());
    api.on('GET /api/admin/me', apiError(403, 'FORBIDDEN', 'Forbidden'));
    const view = renderApp([login, guarded('/admin/dashboard', <p>dashboard page</p>)], ['/admin/dashboard']);
    expect(await screen.findByText('admin login page')).toBeInTheDocument();
    expect(view.path()).toBe('/admin/login');
  });

  it('redirects without a session', async () => {
    renderApp([login, guarded('/admin/dashboard', <p>dashboard page</p>)], ['/admin/dashboard']);
    expect(await screen.findByText('admin login page')).toBeInTheDocument();
  });
});
