import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, installFakeApi, reply } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { DevBillingPortalPage } from './DevBillingPortalPage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const copy = messages.billingManagement;
const PATH = '/api/dev/billing/portal/bps_1';

const yearly = {
  plan: 'yearly',
  name: 'Yearly',
  priceCents: 4999,
  interval: 'year',
  status: 'active',
  currentPeriodEnd: '2027-11-17T23:30:00.000Z',
  cancelAtPeriodEnd: false,
};
const view = (subscription: object | null) => ({ returnUrl: 'http://localhost:3000/settings', subscription });

function renderPortal(setup: (api: ReturnType<typeof installFakeApi>) => void, address = '/dev/billing-portal?session=bps_1') {
  const api = installFakeApi();
  setup(api);
  renderApp([{ path: '/dev/billing-portal', element: <DevBillingPortalPage /> }], [address]);
  return api;
}

describe('/dev/billing-portal', () => {
  it('shows the plan, switches it and says so, and goes back to settings', async () => {
    const api = renderPortal((api) => {
      api.on(`GET ${PATH}`, reply(200, view(yearly)));
      api.on(`POST ${PATH}/plan`, reply(200, view({ ...yearly, plan: 'monthly', name: 'Monthly', priceCents: 599, interval: 'month', currentPeriodEnd: '2026-12-17T23:30:00.000Z' })));
    });
    expect(await screen.findByText(/Jotline Yearly/)).toBeInTheDocument();
    expect(screen.getByText(`${copy.renewsOn} November 17, 2027.`)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Switch to Monthly ($5.99/month)' }));
    expect(await screen.findByText(`${copy.planSwitched}: Monthly`)).toBeInTheDocument();
    expect(screen.getByText(/Jotline Monthly/)).toBeInTheDocument();
    expect(api.requestsTo(`POST ${PATH}/plan`)[0]!.body).toEqual({ plan: 'monthly' });
    expect(screen.getByRole('link', { name: copy.backToSettings })).toHaveAttribute('href', 'http://localhost:3000/settings');
  });

  it('cancels at the end of the period and can undo it', async () => {
    renderPortal((api) => {
      api.on(`GET ${PATH}`, reply(200, view(yearly)));
      api.on(`POST ${PATH}/cancel`, reply(200, view({ ...yearly, cancelAtPeriodEnd: true })));
      api.on(`POST ${PATH}/renew`, reply(200, view(yearly)));
    });
    await userEvent.click(await screen.findByRole('button', { name: copy.cancelAtPeriodEnd }));
    expect(await screen.findByText(copy.cancelScheduled)).toBeInTheDocument();
    expect(screen.getByText(`${copy.cancelsOn} November 17, 2027.`)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: copy.undoCancel }));
    expect(await screen.findByText(copy.cancelUndone)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: copy.cancelAtPeriodEnd })).toBeEnabled());
  });

  it('says when the link is invalid or has expired', async () => {
    renderPortal((api) => api.on(`GET ${PATH}`, apiError(404, 'NOT_FOUND', copy.portalLinkInvalid)));
    expect(await screen.findByRole('alert')).toHaveTextContent(copy.portalLinkInvalid);
    expect(screen.getByRole('link', { name: copy.backToSettings })).toHaveAttribute('href', '/settings');
  });

  it('says when a change fails, and keeps the buttons working', async () => {
    renderPortal((api) => {
      api.on(`GET ${PATH}`, reply(200, view(yearly)));
      api.on(`POST ${PATH}/cancel`, apiError(409, 'CONFLICT', copy.portalNoSubscription));
    });
    await userEvent.click(await screen.findByRole('button', { name: copy.cancelAtPeriodEnd }));
    expect(await screen.findByRole('alert')).toHaveTextContent(copy.portalNoSubscription);
    expect(screen.getByRole('button', { name: copy.cancelAtPeriodEnd })).toBeEnabled();
  });
});
