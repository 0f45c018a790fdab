import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, reply } from '../../test/fake-api';
import { settingsCopy } from './copy';
import { browser } from './settings-queries';
import { buildProfile, expiredSubscription, installSettingsApi, paidSubscription, renderSettings, toasts, trialSubscription } from '../../test/settings';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function billingCard() {
  return within(await screen.findByRole('region', { name: settingsCopy.billingTitle }));
}

describe('billing and subscription', () => {
  it('shows a trial with the days left, an upgrade and no Manage Billing', async () => {
    installSettingsApi(buildProfile(), trialSubscription(2.5));
    renderSettings();
    const card = await billingCard();
    expect(await card.findByText('Free Trial')).toBeInTheDocument();
    expect(card.getByText('· 3 days left')).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/subscribe');
    expect(card.queryByRole('button', { name: settingsCopy.manageBilling })).not.toBeInTheDocument();
  });

  it('says 1 day, not 1 days', async () => {
    installSettingsApi(buildProfile(), trialSubscription(0.2));
    renderSettings();
    const card = await billingCard();
    expect(await card.findByText('· 1 day left')).toBeInTheDocument();
  });

  it('shows an expired trial as Expired, with no Manage Billing', async () => {
    installSettingsApi(buildProfile(), expiredSubscription);
    renderSettings();
    const card = await billingCard();
    expect(await card.findByText('Expired')).toBeInTheDocument();
    expect(card.queryByRole('button', { name: settingsCopy.manageBilling })).not.toBeInTheDocument();
  });

  it.each([
    ['monthly', 'Monthly'],
    ['yearly', 'Yearly'],
  ])('shows a %s subscriber their plan and Manage Billing', async (tier, label) => {
    installSettingsApi(buildProfile(), paidSubscription(tier));
    renderSettings();
    const card = await billingCard();
    expect(await card.findByText(label)).toBeInTheDocument();
    expect(card.getByText(/current billing period ends on March 3, 2027/)).toBeInTheDocument();
    expect(card.getByRole('button', { name: settingsCopy.manageBilling })).toBeInTheDocument();
    expect(card.queryByRole('link', { name: 'Upgrade Now' })).not.toBeInTheDocument();
  });

  it('tells a subscriber who cancelled when the subscription ends, and keeps Manage Billing to undo it', async () => {
    installSettingsApi(buildProfile(), { ...paidSubscription('yearly'), cancel_at_period_end: true });
    renderSettings();
    const card = await billingCard();
    expect(await card.findByText('Yearly')).toBeInTheDocument();
    expect(card.getByText(/Your subscription is cancelled and ends on March 3, 2027\./)).toBeInTheDocument();
    expect(card.queryByText(/current billing period ends/)).not.toBeInTheDocument();
    expect(card.getByRole('button', { name: settingsCopy.manageBilling })).toBeInTheDocument();
  });

  it('Manage Billing opens the billing portal', async () => {
    const api = installSettingsApi(buildProfile(), paidSubscription());
    api.on('POST /api/billing/portal', reply(200, { url: 'https://billing.example.com/session/abc' }));
    const leaveTo = vi.spyOn(browser, 'leaveTo').mockImplementation(() => undefined);
    renderSettings();
    const card = await billingCard();
    await userEvent.setup().click(await card.findByRole('button', { name: settingsCopy.manageBilling }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('https://billing.example.com/session/abc'));
    expect(api.requestsTo('POST /api/billing/portal')[0]!.headers.Authorization).toBe('Bearer token-1');
  });

  it('says when the billing portal cannot be opened', async () => {
    const api = installSettingsApi(buildProfile(), paidSubscription());
    api.on('POST /api/billing/portal', apiError(500, 'INTERNAL', 'Stripe is down'));
    const leaveTo = vi.spyOn(browser, 'leaveTo').mockImplementation(() => undefined);
    renderSettings();
    const card = await billingCard();
    const button = await card.findByRole('button', { name: settingsCopy.manageBilling });
    await userEvent.setup().click(button);
    expect(await toasts().findByText('Failed to open billing portal. Please try again.')).toBeInTheDocument();
    expect(leaveTo).not.toHaveBeenCalled();
    expect(button).toBeEnabled();
  });
});
