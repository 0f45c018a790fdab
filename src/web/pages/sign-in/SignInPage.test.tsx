import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, fakeSession, installFakeApi, networkDown, reply, type FakeApi } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { RedirectIfSignedIn, RequireAuth } from '../../features/auth/guards';
import { renderApp, markerRoute } from '../../test/render-app';
import { SignInPage } from './SignInPage';

const routes = [
  { path: '/sign-in', element: <RedirectIfSignedIn><SignInPage /></RedirectIfSignedIn> },
  { path: '/journal', element: <RequireAuth><p>journal page</p></RequireAuth> },
  { path: '/settings', element: <RequireAuth><p>settings page</p></RequireAuth> },
  markerRoute('/sign-up'),
];

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function signIn(email: string, password: string) {
  const user = userEvent.setup({ delay: null });
  await user.clear(screen.getByLabelText('Email'));
  if (email) await user.type(screen.getByLabelText('Email'), email);
  await user.clear(screen.getByLabelText('Password'));
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  return user;
}

describe('sign-in page', () => {
  it('is hidden from search engines and has a title', () => {
    renderApp(routes, ['/sign-in']);
    expect(document.title).toMatch(/Sign in/);
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex, nofollow');
  });

  it('requires an email before calling the server', async () => {
    renderApp(routes, ['/sign-in']);
    await signIn('', 'Journal123');
    expect(await screen.findByText(messages.signIn.emailRequired)).toBeInTheDocument();
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('refuses input that looks like script injection', async () => {
    renderApp(routes, ['/sign-in']);
    await signIn('<script>alert(1)</script>@example.com', 'Journal123');
    expect(await screen.findByText(messages.signIn.suspiciousInput)).toBeInTheDocument();
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it.each([
    ['wrong credentials', apiError(400, 'INVALID_CREDENTIALS', 'Invalid login credentials'), messages.signIn.invalidCredentials],
    ['a server rate limit', apiError(429, 'RATE_LIMITED', 'Too many requests. Please wait a bit and try again.'), messages.signIn.rateLimited],
    ['an email complaint', apiError(400, 'INVALID_INPUT', 'Invalid email'), messages.signIn.invalidEmail],
  ])('maps %s to the catalogue text', async (_case, answer, expected) => {
    api.on('POST /api/auth/token', answer);
    renderApp(routes, ['/sign-in']);
    await signIn('ada@example.com', 'Wrong123');
    expect(await screen.findByRole('alert')).toHaveTextContent(expected);
    // Once, in the form: not again in a toast.
    expect(screen.getAllByText(messages.signIn.failedTitle)).toHaveLength(1);
    expect(screen.getAllByText(expected)).toHaveLength(1);
  });

  it('says how long a lock by the server lasts', async () => {
    api.on('POST /api/auth/token', apiError(429, 'RATE_LIMITED', messages.signIn.rateLimited));
    renderApp(routes, ['/sign-in']);
    await signIn('ada@example.com', 'Wrong123');
    expect(await screen.findByRole('alert')).toHaveTextContent('Try again in 15 minutes.');
  });

  it('says "connection error" when the server cannot be reached', async () => {
    api.on('POST /api/auth/token', networkDown);
    renderApp(routes, ['/sign-in']);
    await signIn('ada@example.com', 'Journal123');
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.signIn.connection);
  });

  it('allows 5 attempts per 15 minutes in this browser, and says how long to wait', async () => {
    api.on('POST /api/auth/token', apiError(400, 'INVALID_CREDENTIALS', 'Invalid login credentials'));
    // The first attempt three minutes ago: it leaves the window in twelve.
    localStorage.setItem('jotline.signInAttempts', JSON.stringify([Date.now() - 3 * 60_000]));
    renderApp(routes, ['/sign-in']);
    for (let i = 1; i < 5; i++) {
      await signIn('ada@example.com', `Wrong${i}`);
      await waitFor(() => expect(api.requestsTo('POST /api/auth/token')).toHaveLength(i));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled());
    }
    await signIn('ada@example.com', 'Journal123');
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many sign-in attempts. Try again in 12 minutes.');
    expect(api.requestsTo('POST /api/auth/token')).toHaveLength(4);
  });

  it('signs in, welcomes the person back and opens the journal', async () => {
    api.on('POST /api/auth/token', reply(200, fakeSession()));
    const app = renderApp(routes, ['/sign-in']);
    await signIn(' ada@example.com ', 'Journal123');

    expect(await screen.findByText('journal page')).toBeInTheDocument();
    expect(app.path()).toBe('/journal');
    expect(screen.getByText(messages.signIn.success)).toBeInTheDocument();
    expect(api.requestsTo('POST /api/auth/token')[0]!.body).toEqual({ grant_type: 'password', email: 'ada@example.com', password: 'Journal123' });
    expect(sessionStore.get()?.access_token).toBe('access-1');
  });

  it('returns to the page the guard turned them away from', async () => {
    api.on('POST /api/auth/token', reply(200, fakeSession()));
    const app = renderApp(routes, ['/settings']);
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(app.path()).toBe('/sign-in');
    await signIn('ada@example.com', 'Journal123');
    expect(await screen.findByText('settings page')).toBeInTheDocument();
  });

  it('sends a signed-in visitor to the journal', async () => {
    sessionStore.set(fakeSession());
    renderApp(routes, ['/sign-in']);
    expect(await screen.findByText('journal page')).toBeInTheDocument();
  });

  describe('forgot password', () => {
    it('asks for the email, then sends the reset email', async () => {
      api.on('POST /api/auth/recover', reply(200, {}));
      renderApp(routes, ['/sign-in']);
      const user = userEvent.setup({ delay: null });
      await user.click(screen.getByRole('button', { name: messages.signIn.forgotPassword }));

      await user.click(screen.getByRole('button', { name: messages.signIn.sendResetEmail }));
      expect(await screen.findByText(messages.reset.emailRequired)).toBeInTheDocument();
      expect(api.fetch).not.toHaveBeenCalled();

      await user.type(screen.getByLabelText('Email'), 'ada@example.com{Enter}');
      expect(await screen.findAllByText(messages.reset.sent)).not.toHaveLength(0);
      expect(api.requestsTo('POST /api/auth/recover')[0]!.body).toEqual({ email: 'ada@example.com' });
      expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    });

    it('reports a failed request and can go back to sign in', async () => {
      api.on('POST /api/auth/recover', apiError(500, 'INTERNAL', 'Mail is down'));
      renderApp(routes, ['/sign-in']);
      const user = userEvent.setup({ delay: null });
      await user.click(screen.getByRole('button', { name: messages.signIn.forgotPassword }));
      await user.type(screen.getByLabelText('Email'), 'ada@example.com');
      await user.click(screen.getByRole('button', { name: messages.signIn.sendResetEmail }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Mail is down');
      expect(screen.getAllByText(messages.reset.failedTitle)).toHaveLength(1);
      expect(screen.getAllByText('Mail is down')).toHaveLength(1);

      await user.click(screen.getByRole('button', { name: messages.signIn.backToSignIn }));
      expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    });
  });
});
