import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, fakeSession, installFakeApi, reply, type FakeApi } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { renderApp, markerRoute } from '../../test/render-app';
import { ResetPasswordPage } from './ResetPasswordPage';

const routes = [{ path: '/reset-password', element: <ResetPasswordPage /> }, markerRoute('/sign-in')];
const toasts = () => within(screen.getByRole('region', { name: /Notifications/ }));
const validLink = '/reset-password?token_hash=hash-1&type=recovery';

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function setPassword(password: string, confirmation: string) {
  const user = userEvent.setup({ delay: null });
  if (password) await user.type(await screen.findByLabelText('New Password'), password);
  if (confirmation) await user.type(screen.getByLabelText('Confirm Password'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Update Password' }));
}

describe('reset password page', () => {
  it('verifies the link first, then offers the new-password form', async () => {
    let answer: (value: ReturnType<typeof reply>) => void = () => undefined;
    api.on('POST /api/auth/verify', () => new Promise((resolve) => (answer = resolve)));
    renderApp(routes, [validLink]);

    expect(screen.getByRole('heading', { name: messages.reset.verifyingHeading })).toBeInTheDocument();
    expect(screen.getByText(/Please wait/)).toBeInTheDocument();
    expect(api.requestsTo('POST /api/auth/verify')[0]!.body).toEqual({ token_hash: 'hash-1', type: 'recovery' });

    await act(async () => answer(reply(200, fakeSession({ access_token: 'recovery-token' }))));
    expect(await screen.findByRole('heading', { name: messages.reset.setNewHeading })).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toHaveAttribute('autocomplete', 'new-password');
  });

  it('says the link is invalid, offers sign-in, and goes there after 3 s', async () => {
    vi.useFakeTimers();
    const app = renderApp(routes, ['/reset-password?error=access_denied&error_description=Email+link+is+invalid+or+has+expired']);
    expect(screen.getByRole('heading', { name: messages.reset.invalidHeading })).toBeInTheDocument();
    expect(screen.getByText(messages.reset.invalidText)).toBeInTheDocument();
    expect(screen.getByText(/redirected .* in a few seconds/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: messages.reset.goToSignIn })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(toasts().getByText(messages.reset.invalidToast)).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(2_980));
    expect(app.path()).toBe('/reset-password?error=access_denied&error_description=Email+link+is+invalid+or+has+expired');
    await act(() => vi.advanceTimersByTimeAsync(20));
    expect(app.path()).toBe('/sign-in');
  });

  it('treats a refused token as an invalid link', async () => {
    api.on('POST /api/auth/verify', apiError(400, 'INVALID_INPUT', 'Token has expired or is invalid'));
    renderApp(routes, [validLink]);
    expect(await screen.findByRole('heading', { name: messages.reset.invalidHeading })).toBeInTheDocument();
  });

  it('treats a link without a token as invalid', () => {
    renderApp(routes, ['/reset-password']);
    expect(screen.getByRole('heading', { name: messages.reset.invalidHeading })).toBeInTheDocument();
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it.each([
    ['', '', messages.reset.fillAllFields],
    ['secret1', 'secret2', messages.reset.mismatch],
    ['abcdef', 'abcdef', messages.signUp.weakPassword],
    ['Abcdefg1'.toLowerCase(), 'abcdefg1', messages.signUp.weakPassword],
  ])('checks the new password (%j / %j)', async (password, confirmation, message) => {
    api.on('POST /api/auth/verify', reply(200, fakeSession({ access_token: 'recovery-token' })));
    renderApp(routes, [validLink]);
    await screen.findByLabelText('New Password');
    await setPassword(password, confirmation);
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(api.requestsTo('PUT /api/auth/user')).toHaveLength(0);
  });

  it('sets the password with the recovery session, signs that session out, and goes to sign-in', async () => {
    sessionStore.clear();
    api.on('POST /api/auth/verify', reply(200, fakeSession({ access_token: 'recovery-token' })));
    api.on('PUT /api/auth/user', reply(200, fakeSession().user));
    api.on('POST /api/auth/logout', reply(204));
    const app = renderApp(routes, [validLink]);
    await setPassword('New-secret1', 'New-secret1');

    expect(await screen.findByText('/sign-in page')).toBeInTheDocument();
    expect(app.path()).toBe('/sign-in');
    const [update] = api.requestsTo('PUT /api/auth/user');
    expect(update!.body).toEqual({ password: 'New-secret1' });
    expect(update!.headers.Authorization).toBe('Bearer recovery-token');
    expect(api.requestsTo('POST /api/auth/logout')[0]!.headers.Authorization).toBe('Bearer recovery-token');
    expect(await toasts().findByText(messages.reset.updated)).toBeInTheDocument();
    expect(sessionStore.get()).toBeNull();
  });

  it('reports a failed update with the reason, once, in the form', async () => {
    api.on('POST /api/auth/verify', reply(200, fakeSession({ access_token: 'recovery-token' })));
    api.on('PUT /api/auth/user', apiError(400, 'INVALID_INPUT', 'New password should be different from the old password.'));
    renderApp(routes, [validLink]);
    await setPassword('New-secret1', 'New-secret1');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(messages.reset.failedTitle);
    expect(alert).toHaveTextContent('New password should be different from the old password.');
    expect(screen.getAllByText('New password should be different from the old password.')).toHaveLength(1);
    expect(toasts().queryByText(messages.reset.failedTitle)).not.toBeInTheDocument();
  });
});
