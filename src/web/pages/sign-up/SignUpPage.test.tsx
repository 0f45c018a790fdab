import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages, titled } from '../../../shared/messages';
import { apiError, installFakeApi, networkDown, reply, type FakeApi } from '../../test/fake-api';
import { loadPendingVerification } from '../../features/auth/pending-verification';
import { renderApp, markerRoute } from '../../test/render-app';
import { SignUpPage } from './SignUpPage';

function ProbeVerification() {
  return <p>verification page</p>;
}
const routes = [{ path: '/sign-up', element: <SignUpPage /> }, { path: '/phone-verification', element: <ProbeVerification /> }, markerRoute('/sign-in')];

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function fillIn(fields: { email?: string; phone?: string; password?: string; consent?: boolean }) {
  const user = userEvent.setup({ delay: null });
  if (fields.email) await user.type(screen.getByLabelText('Email'), fields.email);
  if (fields.phone) await user.type(screen.getByLabelText('Mobile phone'), fields.phone);
  if (fields.password) await user.type(screen.getByLabelText('Password'), fields.password);
  if (fields.consent) await user.click(screen.getByRole('checkbox'));
  return user;
}

const valid = { email: 'ada@example.com', phone: '(202) 555-0123', password: 'Journal123', consent: true };
const submit = (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: 'Create Account' }));

describe('sign-up page', () => {
  it('shows the consent terms, the one-account-per-phone help and the privacy link', () => {
    renderApp(routes, ['/sign-up']);
    expect(screen.getByText(messages.signUp.phoneHelp)).toBeInTheDocument();
    const consent = screen.getByText(/Msg frequency varies, up to 2 msgs\/day/);
    expect(consent).toHaveTextContent('Msg & data rates may apply');
    expect(consent).toHaveTextContent('Reply HELP for help and STOP to cancel');
    expect(consent).toHaveTextContent('Consent is not a condition of purchase');
    expect(screen.getByRole('link', { name: 'Terms' })).toHaveAttribute('href', '/terms');
    expect(screen.getAllByRole('link', { name: 'Privacy Policy' })[0]).toHaveAttribute('href', '/privacy');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
  });

  it("explains every problem with the form in the spec's words, without calling the server", async () => {
    renderApp(routes, ['/sign-up']);
    const user = await fillIn({ email: 'ada@example.com', phone: '12345', password: 'short' });
    await submit(user);
    expect(await screen.findByText(titled(messages.signUp.invalidPhoneTitle, messages.signUp.invalidPhone))).toBeInTheDocument();
    expect(screen.getByText(messages.signUp.weakPassword)).toBeInTheDocument();
    expect(screen.getByText(titled(messages.signUp.consentRequiredTitle, messages.signUp.consentRequired))).toBeInTheDocument();
    expect(screen.getByLabelText('Mobile phone')).toHaveFocus();
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('refuses suspicious input', async () => {
    renderApp(routes, ['/sign-up']);
    const user = await fillIn({ ...valid, email: 'javascript:alert(1)@example.com' });
    await submit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.signUp.suspiciousInput);
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('lets at most 11 digits be typed into the phone field', async () => {
    renderApp(routes, ['/sign-up']);
    await fillIn({ phone: '1-202-555-0123-99' });
    expect(screen.getByLabelText('Mobile phone')).toHaveValue('1-202-555-0123-');
  });

  it('keeps a number written with its country code, spaces and brackets whole: digits count, not characters', async () => {
    renderApp(routes, ['/sign-up']);
    await fillIn({ phone: '+1 (646) 555-3012' });
    expect(screen.getByLabelText('Mobile phone')).toHaveValue('+1 (646) 555-3012');
  });

  it('ticks off the password rules as they are met', async () => {
    renderApp(routes, ['/sign-up']);
    const rules = screen.getByRole('list', { name: 'Password requirements' });
    expect(rules).toHaveTextContent('At least 8 characters (not yet)');
    await fillIn({ password: 'journal1' });
    expect(rules).toHaveTextContent('At least 8 characters (met)');
    expect(rules).toHaveTextContent('An uppercase letter (not yet)');
    expect(rules).toHaveTextContent('A number (met)');
  });

  it('creates the account and goes on to phone verification, carrying phone, token and target', async () => {
    api.on('POST /api/auth/signup', reply(200, { verification_token: 'verify-abc', redirect_to: '/journal' }));
    const app = renderApp(routes, ['/sign-up']);
    const user = await fillIn(valid);
    await submit(user);

    expect(await screen.findByText('verification page')).toBeInTheDocument();
    expect(app.path()).toBe('/phone-verification');
    const pending = { phone: '+12025550123', email: 'ada@example.com', verificationToken: 'verify-abc', redirectTo: '/journal' };
    expect(app.router.state.location.state).toEqual(pending);
    expect(loadPendingVerification(null)).toEqual(pending);
    expect(screen.getByText(messages.signUp.success)).toBeInTheDocument();

    const body = api.requestsTo('POST /api/auth/signup')[0]!.body;
    expect(body).toMatchObject({ email: 'ada@example.com', password: 'Journal123', phoneNumber: '+12025550123', smsConsent: true });
    expect(typeof body.timezone).toBe('string');
    expect(body.timezone.length).toBeGreaterThan(0);
  });

  it.each([
    ['a taken email', apiError(409, 'CONFLICT', 'User already registered'), messages.signUp.accountExistsTitle, messages.signUp.accountExists],
    ['a taken phone', apiError(409, 'CONFLICT', messages.signUp.phoneTaken), messages.signUp.failedTitle, messages.signUp.phoneTaken],
    ['a server rate limit', apiError(429, 'RATE_LIMITED', 'Too many requests'), messages.signUp.tooManyAttemptsTitle, messages.signUp.tooManyAttempts],
    ['a server validation error', apiError(400, 'INVALID_INPUT', messages.signUp.invalidTimezone), messages.signUp.failedTitle, messages.signUp.invalidTimezone],
    ['a lost connection', networkDown, messages.signUp.unexpectedTitle, messages.signUp.unexpected],
    ['an answer without a token', reply(200, { redirect_to: '/journal' }), messages.signUp.missingTokenTitle, messages.signUp.missingToken],
  ])('explains %s', async (_case, answer, title, description) => {
    api.on('POST /api/auth/signup', answer);
    renderApp(routes, ['/sign-up']);
    const user = await fillIn(valid);
    await submit(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(title);
    expect(alert).toHaveTextContent(description);
    // Said once, in the form: not again in a toast over the page.
    expect(screen.getAllByText(description)).toHaveLength(1);
    expect(screen.getByRole('region', { name: /Notifications/ })).not.toHaveTextContent(title);
  });

  it('shows the server refusing a number outside the US (Toronto here) at the phone field', async () => {
    const invalidPhone = titled(messages.signUp.invalidPhoneTitle, messages.signUp.invalidPhone);
    api.on('POST /api/auth/signup', apiError(400, 'INVALID_INPUT', invalidPhone));
    renderApp(routes, ['/sign-up']);
    const user = await fillIn({ ...valid, phone: '(416) 555-1234' });
    await submit(user);
    const phone = screen.getByLabelText('Mobile phone');
    await waitFor(() => expect(phone).toHaveFocus());
    expect(phone).toHaveAccessibleDescription(expect.stringContaining(invalidPhone));
    expect(screen.queryByText(messages.signUp.failedTitle)).toBeNull();
  });

  it('allows 3 attempts per 15 minutes in this browser', async () => {
    api.on('POST /api/auth/signup', apiError(500, 'INTERNAL', 'Something went wrong on our side. Please try again.'));
    renderApp(routes, ['/sign-up']);
    const user = await fillIn(valid);
    for (let i = 1; i <= 3; i++) {
      await submit(user);
      await waitFor(() => expect(api.requestsTo('POST /api/auth/signup')).toHaveLength(i));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Create Account' })).toBeEnabled());
    }
    await submit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.signUp.tooManyAttempts);
    expect(screen.getByRole('alert')).toHaveTextContent(messages.signUp.tooManyAttemptsTitle);
    expect(api.requestsTo('POST /api/auth/signup')).toHaveLength(3);
  });

  it('shows the time zone it will use, from this browser, and sends the one chosen', async () => {
    api.on('POST /api/auth/signup', reply(200, { verification_token: 'verify-abc', redirect_to: '/journal' }));
    renderApp(routes, ['/sign-up']);
    const zone = screen.getByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveValue(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(zone).toHaveAccessibleDescription(messages.signUp.timezoneHelp);
    const user = await fillIn(valid);
    await user.selectOptions(zone, 'Central');
    await submit(user);
    await screen.findByText('verification page');
    expect(api.requestsTo('POST /api/auth/signup')[0]!.body).toMatchObject({ timezone: 'America/Chicago' });
  });

  it('explains a verification timeout when sent back with ?timeout=true', () => {
    renderApp(routes, ['/sign-up?timeout=true']);
    expect(screen.getByText('Phone verification timed out')).toBeInTheDocument();
  });
});
