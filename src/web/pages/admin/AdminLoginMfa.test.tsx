import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, fakeSession, installFakeApi, reply, type FakeApi } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { renderApp } from '../../test/render-app';
import { AdminLoginPage } from './AdminLoginPage';
import { guarded } from '../../test/admin';

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

async function signInWithPassword() {
  const user = userEvent.setup({ delay: null });
  await user.type(screen.getByLabelText('Email'), 'boss@example.com');
  await user.type(screen.getByLabelText('Password'), 'Journal123');
  await user.click(screen.getByRole('button', { name: messages.admin.signIn }));
  return user;
}

describe('admin login with a second factor', () => {
  it('asks an admin with two-step verification for a code, then opens the dashboard', async () => {
    api.on('POST /api/auth/token', (request) =>
      (request.body as { grant_type?: string }).grant_type === 'mfa'
        ? reply(200, fakeSession({ email: 'boss@example.com' }))
        : reply(200, { mfa_required: true, mfa_token: 'mfa-1', methods: ['totp', 'recovery_code'] }),
    );
    api.on('GET /api/admin/me', reply(200, { success: true, user: { id: 'user-1', email: 'boss@example.com' } }));
    const view = renderApp(routes, ['/admin/login']);
    const user = await signInWithPassword();
    await user.type(await screen.findByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
    expect(view.path()).toBe('/admin/dashboard');
    expect(api.requestsTo('POST /api/auth/token')[1]!.body).toEqual({ grant_type: 'mfa', mfa_token: 'mfa-1', code: '123456' });
  });

  it('keeps an admin without a second factor signed in and walks them through setting up an authenticator app', async () => {
    api.on('POST /api/auth/token', reply(200, fakeSession({ email: 'boss@example.com' })));
    let hasSecondFactor = false;
    api.on('GET /api/admin/me', () =>
      hasSecondFactor ? reply(200, { success: true, user: { id: 'user-1', email: 'boss@example.com' } }) : apiError(403, 'MFA_REQUIRED', 'Set one up'),
    );
    api.on('POST /api/auth/totp', reply(200, { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Jotline:boss%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Jotline' }));
    api.on('POST /api/auth/totp/confirm', () => {
      hasSecondFactor = true;
      return reply(200, { recovery_codes: Array.from({ length: 10 }, (_, i) => `code${i}-abcde`) });
    });
    const view = renderApp(routes, ['/admin/login']);
    const user = await signInWithPassword();
    expect(await screen.findByText('Set up two-step verification')).toBeInTheDocument();
    expect(sessionStore.get()).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeInTheDocument();
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Authentication code'), '123 456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findAllByText(/^code\d-abcde$/)).toHaveLength(10);
    expect(api.requestsTo('POST /api/auth/totp/confirm')[0]!.body).toEqual({ code: '123456' });
    await user.click(screen.getByRole('button', { name: 'I have saved my recovery codes' }));
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
    expect(view.path()).toBe('/admin/dashboard');
  });
});
