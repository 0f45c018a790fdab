import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { ApiError } from '../../api/errors';
import { fakeSession, installFakeApi, reply } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { markerRoute, renderApp } from '../../test/render-app';
import { checkoutBrowser } from '../../features/billing';
import { TrialExpiredPage } from './TrialExpiredPage';

const download = vi.hoisted(() => vi.fn(async () => 'journal-export.txt'));
vi.mock('../../features/journal/export-download', () => ({ downloadExport: download }));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  download.mockClear();
});

function renderExpired() {
  const api = installFakeApi();
  sessionStore.set(fakeSession({ access_token: 'token-1' }));
  renderApp([{ path: '/trial-expired', element: <TrialExpiredPage /> }], ['/trial-expired']);
  return api;
}

const subscriptionOf = (over: Record<string, unknown>) => ({ subscribed: false, subscription_tier: null, subscription_end: null, is_trial: true, trial_end: null, ...over });

function renderWith(subscription: Record<string, unknown>) {
  const api = installFakeApi();
  api.on('GET /api/subscription', reply(200, subscriptionOf(subscription)));
  api.on('POST /api/auth/logout', reply(204));
  sessionStore.set(fakeSession({ access_token: 'token-1' }));
  const app = renderApp([{ path: '/trial-expired', element: <TrialExpiredPage /> }, markerRoute('/journal'), markerRoute('/')], ['/trial-expired']);
  return { api, app };
}

describe('/trial-expired', () => {
  it('sends someone whose trial still runs to the journal', async () => {
    const { app } = renderWith({ trial_end: new Date(Date.now() + 5 * 86_400_000).toISOString() });
    expect(await screen.findByText('/journal page')).toBeInTheDocument();
    expect(app.path()).toBe('/journal');
  });

  it('sends a subscriber to the journal', async () => {
    const { app } = renderWith({ subscribed: true, subscription_tier: 'monthly', is_trial: false });
    expect(await screen.findByText('/journal page')).toBeInTheDocument();
    expect(app.path()).toBe('/journal');
  });

  it('lets someone whose trial ended sign out from here', async () => {
    const { api, app } = renderWith({ trial_end: '2020-01-01T00:00:00.000Z' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Trial Expired' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(await screen.findByText('/ page')).toBeInTheDocument();
    expect(app.path()).toBe('/');
    await waitFor(() => expect(api.requestsTo('POST /api/auth/logout')).toHaveLength(1));
    expect(sessionStore.get()).toBeNull();
  });

  it("says 'Trial Expired' and offers both plans", async () => {
    renderExpired();
    expect(await screen.findByRole('heading', { level: 1, name: 'Trial Expired' })).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Monthly' })).toHaveTextContent('$5.99/month');
    expect(screen.getByRole('article', { name: 'Yearly' })).toHaveTextContent('Save $21.89 (30%)');
  });

  it('upgrading starts checkout', async () => {
    const api = renderExpired();
    api.on('POST /api/billing/checkout', reply(200, { url: 'https://checkout.example.com/pay/2', sessionId: 'cs_9' }));
    const leaveTo = vi.spyOn(checkoutBrowser, 'leaveTo').mockImplementation(() => undefined);
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Monthly' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('https://checkout.example.com/pay/2'));
    expect(api.requestsTo('POST /api/billing/checkout')[0]!.body).toEqual({ plan: 'monthly' });
  });

  it('still lets them export their journal as text', async () => {
    renderExpired();
    expect(screen.getByText(messages.billing.exportNote)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: messages.billing.exportJournal }));
    await waitFor(() => expect(download).toHaveBeenCalledWith({ format: 'txt', from: '', to: '', photos: false }));
  });

  it('says so when the export fails', async () => {
    download.mockRejectedValueOnce(new Error('nope'));
    renderExpired();
    await userEvent.click(screen.getByRole('button', { name: messages.billing.exportJournal }));
    expect(await screen.findByText(messages.billing.exportFailed)).toBeInTheDocument();
  });

  it('says when the export allowance is used up, in the server’s words', async () => {
    download.mockRejectedValueOnce(new ApiError(429, 'RATE_LIMITED', messages.entries.exportRateLimited));
    renderExpired();
    await userEvent.click(screen.getByRole('button', { name: messages.billing.exportJournal }));
    expect(await screen.findByText(messages.entries.exportRateLimited)).toBeInTheDocument();
    expect(screen.queryByText(messages.billing.exportFailed)).not.toBeInTheDocument();
  });
});
