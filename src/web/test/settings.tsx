import { screen, within } from '@testing-library/react';
import type { ProfileResponse, SubscriptionResponse } from '../../shared/profile';
import { fakeSession, installFakeApi, reply, type FakeApi } from './fake-api';
import { sessionStore } from '../api/session-store';
import { RequireAuth } from '../features/auth/guards';
import { renderApp, markerRoute } from './render-app';
import { SettingsPage } from '../pages/settings/SettingsPage';

/** Test-only helpers for the settings page, faking the API at the fetch boundary. */

const DAY_MS = 24 * 60 * 60 * 1000;

export function buildProfile(overrides: Partial<ProfileResponse> = {}): ProfileResponse {
  return {
    id: 'user-1',
    timezone: 'America/New_York',
    phone_number: '+12025550123',
    phone_verified: true,
    created_at: '2026-01-01T00:00:00.000Z',
    is_opted_out: false,
    reminder_enabled: true,
    reminder_time: '20:00',
    reminder_timezone: 'America/New_York',
    weekly_recap_enabled: true,
    prompts_enabled: true,
    on_this_day_enabled: true,
    paused_until: null,
    journal_number: '+15555550100',
    ...overrides,
  };
}

/** A trial with `daysLeft` (fractions round up) to go. */
export function trialSubscription(daysLeft = 2.5): SubscriptionResponse {
  return { subscribed: false, subscription_tier: null, subscription_end: null, is_trial: true, trial_end: new Date(Date.now() + daysLeft * DAY_MS).toISOString() };
}

export function paidSubscription(tier = 'monthly'): SubscriptionResponse {
  return { subscribed: true, subscription_tier: tier, subscription_end: '2027-03-03T12:00:00.000Z', is_trial: false, trial_end: '2026-01-11T00:00:00.000Z' };
}

export const expiredSubscription: SubscriptionResponse = {
  subscribed: false,
  subscription_tier: null,
  subscription_end: null,
  is_trial: true,
  trial_end: '2026-01-11T00:00:00.000Z',
};

/** Signed in, with this profile and subscription on the fake API; PATCH answers with the merged profile. */
export function installSettingsApi(profile: ProfileResponse = buildProfile(), subscription: SubscriptionResponse = trialSubscription()): FakeApi {
  const api = installFakeApi();
  let stored = profile;
  api.on('GET /api/profile', () => reply(200, stored));
  api.on('GET /api/subscription', reply(200, subscription));
  api.on('PATCH /api/profile', (request) => {
    stored = { ...stored, ...request.body };
    return reply(200, stored);
  });
  sessionStore.set(fakeSession({ access_token: 'token-1' }));
  return api;
}

export function renderSettings() {
  const routes = [
    { path: '/settings', element: <RequireAuth><SettingsPage /></RequireAuth> },
    markerRoute('/journal'),
    markerRoute('/'),
    markerRoute('/sign-in'),
    markerRoute('/subscribe'),
  ];
  return renderApp(routes, ['/settings']);
}

export const toasts = () => within(screen.getByRole('region', { name: /Notifications/ }));

/** Waits for the form, then answers with its controls by their labels. */
export async function findControls() {
  await screen.findByRole('switch', { name: 'Daily reminder' });
  return {
    dailyReminder: screen.getByRole('switch', { name: 'Daily reminder' }),
    weeklyRecap: screen.getByRole('switch', { name: 'Weekly recap' }),
    dailyPrompts: screen.getByRole('switch', { name: 'Daily prompts' }),
    hour: screen.getByRole('combobox', { name: 'Hour' }) as HTMLSelectElement,
    minute: screen.getByRole('combobox', { name: 'Minute' }) as HTMLSelectElement,
    period: screen.getByRole('combobox', { name: 'AM or PM' }) as HTMLSelectElement,
    timezone: screen.getByRole('combobox', { name: 'Time zone' }) as HTMLSelectElement,
    save: screen.getByRole('button', { name: 'Save' }),
    cancel: screen.getByRole('button', { name: 'Cancel' }),
  };
}
