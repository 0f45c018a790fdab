import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, fakeSession, installFakeApi, reply } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { renderApp } from '../../test/render-app';
import { checkoutBrowser, portalBrowser } from '../../features/billing';
import { CHECKOUT_SESSION_STORAGE_KEY } from '../../features/journal';
import { SubscribePage } from './SubscribePage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderSubscribe(setup?: (api: ReturnType<typeof installFakeApi>) => void) {
  const api = installFakeApi();
  setup?.(api);
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
    // $21.89 is 3.65 months of the monthly plan.
    expect(yearly).toHaveTextContent('Over 3.5 months free');
    expect(yearly).not.toHaveTextContent('2 months free');
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

  it('sends a subscriber whose checkout is refused (409) to Manage Billing instead of checkout', async () => {
    const api = renderSubscribe();
    api.on('POST /api/billing/checkout', apiError(409, 'CONFLICT', messages.billingManagement.alreadySubscribed));
    api.on('POST /api/billing/portal', reply(200, { url: 'http://localhost/dev/billing-portal?session=bps_1' }));
    const leaveTo = vi.spyOn(checkoutBrowser, 'leaveTo').mockImplementation(() => undefined);
    const toPortal = vi.spyOn(portalBrowser, 'leaveTo').mockImplementation(() => undefined);
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Monthly' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(messages.billingManagement.alreadySubscribedTitle);
    expect(alert).toHaveTextContent(messages.billingManagement.alreadySubscribed);
    expect(screen.queryByText(messages.billing.checkoutErrorTitle)).not.toBeInTheDocument();
    expect(leaveTo).not.toHaveBeenCalled();
    expect(localStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).toBeNull();

    await userEvent.click(within(alert).getByRole('button', { name: 'Manage Billing' }));
    await waitFor(() => expect(toPortal).toHaveBeenCalledWith('http://localhost/dev/billing-portal?session=bps_1'));
  });

  it('tells a known subscriber up front, and offers no plan (one subscription per account)', async () => {
    renderSubscribe((api) =>
      api.on('GET /api/subscription', reply(200, { subscribed: true, subscription_tier: 'yearly', subscription_end: '2027-11-17T01:57:00.000Z', is_trial: false, trial_end: null })),
    );
    expect(await screen.findByText(messages.billingManagement.subscribedNotice)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Manage Billing' })).toBeEnabled();
    const yearly = screen.getByRole('article', { name: 'Yearly' });
    expect(within(yearly).getByRole('button', { name: messages.billingManagement.currentPlan })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Choose Monthly' })).toBeDisabled();
  });

  it('tells a cancelled subscriber when the subscription ends and points to Manage Billing, not to a plan', async () => {
    const api = renderSubscribe((api) =>
      api.on(
        'GET /api/subscription',
        reply(200, {
          subscribed: true,
          subscription_tier: 'monthly',
          subscription_end: '2027-03-03T12:00:00.000Z',
          is_trial: false,
          trial_end: null,
          cancel_at_period_end: true,
        }),
      ),
    );
    expect(await screen.findByText(/^Your subscription is cancelled and ends on March [345], 2027\. To keep it, or to choose a plan again, use Manage Billing\.$/)).toBeInTheDocument();
    expect(screen.queryByText(messages.billingManagement.subscribedNotice)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Manage Billing' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Choose Yearly' })).toBeDisabled();
    expect(screen.getByRole('button', { name: messages.billingManagement.currentPlan })).toBeDisabled();
    expect(api.requestsTo('POST /api/billing/checkout')).toHaveLength(0);
  });

  describe('during the free trial', () => {
    const zone = process.env.TZ;
    beforeEach(() => {
      // The day is read where the reader is: pin the zone and the clock (Date only; timers stay real).
      process.env.TZ = 'America/New_York';
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-11-25T15:00:00Z'));
    });
    afterEach(() => {
      vi.useRealTimers();
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });
    const trial = (trialEnd: string) => (api: ReturnType<typeof installFakeApi>) =>
      api.on('GET /api/subscription', reply(200, { subscribed: false, subscription_tier: null, subscription_end: null, is_trial: true, trial_end: trialEnd }));

    it('names the day of the first charge: the trial’s end, its remaining days kept', async () => {
      // 2026-12-06T02:30Z is still Dec 5 in New York.
      renderSubscribe(trial('2026-12-06T02:30:00.000Z'));
      expect(await screen.findByText('First charge on Dec 5')).toBeInTheDocument();
      expect(screen.getByText(messages.billing.trialKept, { exact: false })).toBeInTheDocument();
    });

    it('says the first charge is today when the trial ends within two days', async () => {
      renderSubscribe(trial('2026-11-27T12:00:00.000Z'));
      expect(await screen.findByText(messages.billing.firstChargeToday)).toBeInTheDocument();
      expect(screen.queryByText(/First charge on/)).not.toBeInTheDocument();
    });
  });

  it('says nothing of a first charge to a user whose trial has ended', async () => {
    renderSubscribe((api) =>
      api.on('GET /api/subscription', reply(200, { subscribed: false, subscription_tier: null, subscription_end: null, is_trial: true, trial_end: '2020-01-01T00:00:00.000Z' })),
    );
    expect(await screen.findByRole('button', { name: 'Choose Monthly' })).toBeInTheDocument();
    expect(screen.queryByText(/First charge/)).not.toBeInTheDocument();
  });

  it('says when the billing portal cannot be opened', async () => {
    const api = renderSubscribe();
    api.on('POST /api/billing/checkout', apiError(409, 'CONFLICT', messages.billingManagement.alreadySubscribed));
    api.on('POST /api/billing/portal', apiError(502, 'BILLING_PROVIDER_ERROR', 'Failed to open billing portal'));
    const toPortal = vi.spyOn(portalBrowser, 'leaveTo').mockImplementation(() => undefined);
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Yearly' }));
    await userEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Manage Billing' }));
    expect(await screen.findByText(messages.billing.portalFailed)).toBeInTheDocument();
    expect(toPortal).not.toHaveBeenCalled();
  });
});
