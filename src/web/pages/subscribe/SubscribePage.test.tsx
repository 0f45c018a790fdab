import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, fakeSession, installFakeApi, reply } from '../../api/fake-api';
import { sessionStore } from '../../api/session-store';
import { renderApp } from '../../features/auth/render-app';
import { checkoutBrowser } from '../../features/billing';
import { CHECKOUT_SESSION_STORAGE_KEY } from '../../features/journal';
import { SubscribePage } from './SubscribePage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderSubscribe() {
  const api = installFakeApi();
  sessionStore.set(fakeSession({ access_token: 'token-1' }));
  renderApp([{ path: '/subscribe', element: <SubscribePage /> }], ['/subscribe']);
  return api;
}

describe('/subscribe', () => {
  it('shows the two plans with their prices, the yearly savings and BEST VALUE', async () => {
    renderSubscribe();
    const monthly = await screen.findByRole('article', { name: 'Monthly' });
    expect(monthly).toHaveTextContent('$5.99/month');
    const yearly = screen.getByRole('article', { name: 'Yearly' });
    expect(yearly).toHaveTextContent('$49.99/year');
    expect(yearly).toHaveTextContent('BEST VALUE');
    expect(yearly).toHaveTextContent('Save $21.89 (30%)');
    expect(yearly).toHaveTextContent('2 months free');
  });

  it.each(['monthly', 'yearly'] as const)('choosing %s starts checkout, keeps the session id and goes to the url', async (plan) => {
    const api = renderSubscribe();
    api.on('POST /api/billing/checkout', reply(200, { url: 'https://checkout.example.com/pay/1', sessionId: 'cs_123' }));
    const leaveTo = vi.spyOn(checkoutBrowser, 'leaveTo').mockImplementation(() => undefined);
    const name = plan === 'monthly' ? 'Choose Monthly' : 'Choose Yearly';
    await userEvent.click(await screen.findByRole('button', { name }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('https://checkout.example.com/pay/1'));
    const [request] = api.requestsTo('POST /api/billing/checkout');
    expect(request!.body).toEqual({ plan });
    expect(request!.headers.Authorization).toBe('Bearer token-1');
    expect(localStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).toBe('cs_123');
  });

  it.each([
    ['Failed to create checkout session', messages.billing.checkoutFailed],
    ['Checkout failed: the pricing configuration is invalid', messages.billing.pricingConfiguration],
    ['Checkout failed: the billing account configuration is invalid', messages.billing.accountConfiguration],
  ])('maps the server message %j to the Checkout Error %j', async (serverMessage, shown) => {
    const api = renderSubscribe();
    api.on('POST /api/billing/checkout', apiError(502, 'BILLING_PROVIDER_ERROR', serverMessage));
    const leaveTo = vi.spyOn(checkoutBrowser, 'leaveTo').mockImplementation(() => undefined);
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Yearly' }));
    expect(await screen.findByText(messages.billing.checkoutErrorTitle)).toBeInTheDocument();
    expect(screen.getByText(shown)).toBeInTheDocument();
    expect(leaveTo).not.toHaveBeenCalled();
    expect(localStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).toBeNull();
    // The buttons work again.
    expect(screen.getByRole('button', { name: 'Choose Yearly' })).toBeEnabled();
  });
});
