import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, fakeSession, installFakeApi, reply, type FakeApi } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { RequireAuth } from '../../features/auth/guards';
import { markerRoute, renderApp } from '../../test/render-app';
import { JournalPage } from './JournalPage';

const routes = [{ path: '/journal', element: <RequireAuth><JournalPage /></RequireAuth> }, markerRoute('/sign-in')];
const entry = (n: number) => ({
  id: `entry-${n}`,
  title: null,
  content: `Entry number ${n}`,
  source: 'web',
  entry_date: `2026-03-${String(n).padStart(2, '0')}`,
  created_at: `2026-03-${String(n).padStart(2, '0')}T20:05:00.000Z`,
  updated_at: `2026-03-${String(n).padStart(2, '0')}T20:05:00.000Z`,
  tags: [],
  word_count: 3,
  photos: [],
});
const trial = { subscribed: false, subscription_tier: null, subscription_end: null, is_trial: true, trial_end: '2099-01-01T00:00:00.000Z' };

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.on('GET /api/entries', reply(200, { entries: Array.from({ length: 20 }, (_, i) => entry(i + 1)), nextCursor: null }));
  api.on('GET /api/stats', reply(200, { current_streak: 1, total_days: 20, total_photos: 0, total_words: 60 }));
  api.on('GET /api/subscription', reply(200, trial));
  sessionStore.set(fakeSession({ access_token: 'token-1' }));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function openJournal() {
  renderApp(routes, ['/journal']);
  await screen.findByText('Entry number 20');
  return userEvent.setup({ delay: null });
}

describe('the journal by keyboard', () => {
  it('has one main heading', async () => {
    await openJournal();
    expect(screen.getByRole('heading', { level: 1, name: messages.journalPage.heading })).toBeInTheDocument();
  });

  it('reaches New entry in a few Tabs, before the entries', async () => {
    const user = await openJournal();
    const newEntry = screen.getByRole('button', { name: 'New entry' });
    for (let tabs = 1; tabs <= 6; tabs++) {
      await user.tab();
      if (document.activeElement === newEntry) return;
      expect(document.activeElement?.closest('article')).toBeNull();
    }
    throw new Error('New entry was not reached in 6 Tabs');
  });

  it('opens the new entry form with n', async () => {
    const user = await openJournal();
    await user.keyboard('n');
    // The form's code is a chunk of its own, loaded (and, here, compiled) on first use: slow on a busy machine.
    expect(await screen.findByRole('dialog', {}, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('does not take n while typing in a field, nor with a modifier', async () => {
    const user = await openJournal();
    const search = screen.getAllByRole('searchbox')[0]!;
    await user.click(search);
    await user.keyboard('n');
    expect(search).toHaveValue('n');
    await user.click(screen.getByRole('heading', { level: 1 }));
    await user.keyboard('{Control>}n{/Control}{Meta>}n{/Meta}{Alt>}n{/Alt}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('a journal whose trial has ended', () => {
  it('offers the plans and shows nothing of the journal the server refused', async () => {
    api.on('GET /api/subscription', reply(200, { ...trial, trial_end: '2026-01-01T00:00:00.000Z' }));
    api.on('GET /api/entries', apiError(402, 'PAYMENT_REQUIRED', messages.entries.accessRequired));
    renderApp(routes, ['/journal']);
    expect(await screen.findByRole('heading', { level: 1, name: messages.billing.trialExpiredTitle })).toBeInTheDocument();
    await waitFor(() => expect(api.requestsTo('GET /api/entries')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Journal entries' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New entry' })).not.toBeInTheDocument();
  });
});

describe('opening the journal', () => {
  it('asks for the entries beside the subscription status, not after it', async () => {
    let answerSubscription!: () => void;
    api.on('GET /api/subscription', () => new Promise((resolve) => (answerSubscription = () => resolve(reply(200, trial)))));
    api.on('GET /api/entries', reply(200, { entries: [], nextCursor: null }));
    renderApp(routes, ['/journal']);
    // Still waiting for the subscription: the entries are already on their way.
    await waitFor(() => expect(api.requestsTo('GET /api/entries')).toHaveLength(1));
    answerSubscription();
    expect(await screen.findByRole('button', { name: 'Create Your First Entry' })).toBeInTheDocument();
    expect(api.requestsTo('GET /api/entries')).toHaveLength(1);
  });
});
