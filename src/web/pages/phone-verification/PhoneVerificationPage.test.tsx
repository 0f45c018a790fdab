import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, fakeSession, installFakeApi, networkDown, reply, type FakeApi } from '../../test/fake-api';
import { RedirectIfSignedIn, RequireAuth } from '../../features/auth/guards';
import { savePendingVerification } from '../../features/auth/pending-verification';
import { renderApp, markerRoute } from '../../test/render-app';
import { AuthCallbackPage } from '../auth-callback/AuthCallbackPage';
import { SignUpPage } from '../sign-up/SignUpPage';
import { PhoneVerificationPage } from './PhoneVerificationPage';

/** Stands in for the browser's EventSource so a test can push the server's USER_VERIFIED event. */
class FakeEventSource extends EventTarget {
  static instances: FakeEventSource[] = [];
  closed = false;
  constructor(readonly url: string) {
    super();
    FakeEventSource.instances.push(this);
  }
  close() {
    this.closed = true;
  }
  emit(type: string) {
    this.dispatchEvent(new MessageEvent(type, { data: '{}' }));
  }
}

const pending = { phone: '+12025550123', verificationToken: 'verify-abc', redirectTo: '/journal' };
const routes = [
  { path: '/phone-verification', element: <RedirectIfSignedIn><PhoneVerificationPage /></RedirectIfSignedIn> },
  { path: '/auth/callback', element: <AuthCallbackPage /> },
  { path: '/journal', element: <RequireAuth><p>journal page</p></RequireAuth> },
  markerRoute('/sign-up'),
];
const openPage = () => renderApp(routes, [{ pathname: '/phone-verification', state: pending }]);
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const VERIFY = 'POST /api/auth/verify-phone';
const toasts = () => within(screen.getByRole('region', { name: /Notifications/ }));

let api: FakeApi;
beforeEach(() => {
  vi.useFakeTimers();
  sessionStorage.clear();
  FakeEventSource.instances = [];
  api = installFakeApi();
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('phone verification page', () => {
  it('shows the masked number, what to expect, and a way back to sign-up', async () => {
    api.on(VERIFY, reply(200, { verified: false }));
    const app = openPage();
    expect(screen.getByRole('heading', { name: messages.verification.heading })).toBeInTheDocument();
    expect(screen.getByText('(•••) •••-0123')).toBeInTheDocument();
    expect(screen.getByText(/Reply YES/)).toBeInTheDocument();
    expect(screen.getByText(/signed in here automatically/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: messages.verification.backToSignUp }));
    await advance(0);
    expect(app.path()).toBe('/sign-up');
  });

  it('goes back to a sign-up form that still holds the e-mail and phone, but not the password', async () => {
    api.on(VERIFY, reply(200, { verified: false }));
    const withForm = [...routes.filter((route) => route.path !== '/sign-up'), { path: '/sign-up', element: <SignUpPage /> }];
    renderApp(withForm, [{ pathname: '/phone-verification', state: { ...pending, email: 'ada@example.com' } }]);
    fireEvent.click(screen.getByRole('button', { name: messages.verification.backToSignUp }));
    await advance(0);
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Mobile phone')).toHaveValue('(202) 555-0123');
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it('sends anyone without a phone and token to sign-up', async () => {
    const app = renderApp(routes, ['/phone-verification']);
    await advance(0);
    expect(app.path()).toBe('/sign-up');
  });

  it('survives a reload by reading what sign-up saved for this tab', async () => {
    savePendingVerification(pending);
    renderApp(routes, ['/phone-verification']);
    expect(screen.getByText('(•••) •••-0123')).toBeInTheDocument();
  });

  it('checks first after 1 s, then every 2 s while the answer is "not yet", counting attempts and time', async () => {
    api.on(VERIFY, reply(200, { verified: false }));
    openPage();
    await advance(999);
    expect(api.requestsTo(VERIFY)).toHaveLength(0);
    await advance(1);
    expect(api.requestsTo(VERIFY)).toHaveLength(1);
    expect(api.requestsTo(VERIFY)[0]!.body).toEqual({ verification_token: 'verify-abc' });
    await advance(1_999);
    expect(api.requestsTo(VERIFY)).toHaveLength(1);
    await advance(1);
    expect(api.requestsTo(VERIFY)).toHaveLength(2);
    await advance(2_000);
    expect(api.requestsTo(VERIFY)).toHaveLength(3);
    expect(screen.getByText('Attempt 3')).toBeInTheDocument();
    expect(screen.getByRole('timer')).toHaveTextContent('0:05');
    await advance(60_000);
    expect(screen.getByRole('timer')).toHaveTextContent('1:05');
  });

  it('backs off 2 s per consecutive failure and shows the error after 3, while retrying', async () => {
    api.on(VERIFY, apiError(500, 'INTERNAL', 'boom'));
    openPage();
    await advance(1_000); // failure 1 at 1 s
    await advance(2_000); // failure 2 at 3 s
    expect(api.requestsTo(VERIFY)).toHaveLength(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await advance(3_999);
    expect(api.requestsTo(VERIFY)).toHaveLength(2);
    await advance(1); // failure 3 at 7 s
    expect(api.requestsTo(VERIFY)).toHaveLength(3);
    expect(screen.getByRole('alert')).toHaveTextContent(messages.verification.temporaryError);
    await advance(6_000); // failure 4 at 13 s
    expect(api.requestsTo(VERIFY)).toHaveLength(4);
    await advance(8_000 + 10_000 + 12_000 + 14_000); // failures 5-8
    expect(api.requestsTo(VERIFY)).toHaveLength(8);
    await advance(14_999); // the delay is capped at 15 s
    expect(api.requestsTo(VERIFY)).toHaveLength(8);
    await advance(1);
    expect(api.requestsTo(VERIFY)).toHaveLength(9);

    api.on(VERIFY, reply(200, { verified: false }));
    await advance(15_000);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('names a lost connection, and "Try Again" starts over from the beginning', async () => {
    api.on(VERIFY, networkDown);
    openPage();
    await advance(1_000 + 2_000 + 4_000);
    expect(screen.getByRole('alert')).toHaveTextContent(messages.verification.networkError);

    api.on(VERIFY, reply(200, { verified: false }));
    fireEvent.click(screen.getByRole('button', { name: messages.verification.tryAgain }));
    await advance(0);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('timer')).toHaveTextContent('0:00');
    expect(screen.getByText('Attempt 0')).toBeInTheDocument();
    await advance(999);
    expect(api.requestsTo(VERIFY)).toHaveLength(3);
    await advance(1);
    expect(api.requestsTo(VERIFY)).toHaveLength(4);
  });

  it('treats any other answer shape as an unexpected response', async () => {
    api.on(VERIFY, reply(200, { verified: true }));
    openPage();
    await advance(1_000 + 2_000 + 4_000);
    expect(screen.getByRole('alert')).toHaveTextContent(messages.verification.unexpectedFormat);
  });

  it('offers "Check Again" after 30 s and "Need help?" after 120 s', async () => {
    api.on(VERIFY, reply(200, { verified: false }));
    openPage();
    await advance(29_000);
    expect(screen.queryByText(messages.verification.slowHint)).not.toBeInTheDocument();
    await advance(1_000);
    expect(screen.getByText(messages.verification.slowHint)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: messages.verification.needHelp })).not.toBeInTheDocument();

    const before = api.requestsTo(VERIFY).length;
    await advance(500); // between polls
    fireEvent.click(screen.getByRole('button', { name: messages.verification.checkAgain }));
    await advance(0);
    expect(api.requestsTo(VERIFY)).toHaveLength(before + 1);

    await advance(89_000);
    expect(screen.queryByRole('button', { name: messages.verification.needHelp })).not.toBeInTheDocument();
    await advance(1_000);
    fireEvent.click(screen.getByRole('button', { name: messages.verification.needHelp }));
    await advance(10);
    expect(toasts().getByText(messages.verification.instructionsSent)).toBeInTheDocument();
    // A text never lands in an e-mail spam folder, and nothing new was sent.
    expect(toasts().queryByText(/spam folder|Instructions sent/)).not.toBeInTheDocument();
  });

  it('gives up after 10 minutes and goes back to sign-up with ?timeout=true', async () => {
    api.on(VERIFY, reply(200, { verified: false }));
    const app = openPage();
    await advance(599_000);
    expect(app.path()).toBe('/phone-verification');
    await advance(1_000);
    expect(app.path()).toBe('/sign-up?timeout=true');
    await advance(10); // toasts render on the next timer turn
    expect(toasts().getByText(messages.verification.timeoutToast)).toBeInTheDocument();
    const calls = api.requestsTo(VERIFY).length;
    await advance(10_000);
    expect(api.requestsTo(VERIFY)).toHaveLength(calls);
  });

  it('once verified, says so and about 1 s later signs in through the auth link', async () => {
    api.on(VERIFY, reply(200, { verified: true, auth_link: 'http://localhost:3000/auth/callback?token=link-xyz' }));
    api.on('POST /api/auth/token', reply(200, fakeSession()));
    const app = openPage();
    await advance(1_000);
    await advance(10);
    expect(toasts().getByText(messages.verification.verified)).toBeInTheDocument();
    await advance(989);
    expect(app.path()).toBe('/phone-verification');
    await advance(1);
    await advance(0);
    expect(api.requestsTo('POST /api/auth/token')[0]!.body).toEqual({ grant_type: 'link', token: 'link-xyz' });
    await advance(0);
    expect(app.path()).toBe('/journal');
    expect(screen.getByText('journal page')).toBeInTheDocument();
    expect(FakeEventSource.instances.every((source) => source.closed)).toBe(true);
  });

  it('checks at once when the server reports USER_VERIFIED', async () => {
    api.on(VERIFY, reply(200, { verified: true, auth_link: 'http://localhost:3000/auth/callback?token=link-xyz' }));
    openPage();
    expect(FakeEventSource.instances[0]!.url).toBe('/api/auth/verification-events?verification_token=verify-abc');
    await advance(300);
    expect(api.requestsTo(VERIFY)).toHaveLength(0);
    act(() => FakeEventSource.instances[0]!.emit('USER_VERIFIED'));
    await advance(0);
    expect(api.requestsTo(VERIFY)).toHaveLength(1);
    await advance(10);
    expect(toasts().getByText(messages.verification.verified)).toBeInTheDocument();
  });
});
