import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { fakeSession, installFakeApi, reply } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';

/** The journal page with its modules fresh, so the account menu's code is not loaded yet. */
async function freshJournal() {
  vi.resetModules();
  // Everything that shares the app's contexts comes from the same fresh modules.
  const [{ JournalPage }, { RequireAuth }, { renderApp }] = await Promise.all([
    import('./JournalPage'),
    import('../../features/auth/guards'),
    import('../../test/render-app'),
  ]);
  return renderApp([{ path: '/journal', element: <RequireAuth><JournalPage /></RequireAuth> }], ['/journal']);
}

beforeEach(() => {
  const api = installFakeApi();
  api.on('GET /api/entries', reply(200, { entries: [], nextCursor: null }));
  api.on('GET /api/stats', reply(200, { current_streak: 0, total_days: 0, total_photos: 0, total_words: 0 }));
  sessionStore.set(fakeSession({ access_token: 'token-1' }));
});

afterEach(() => {
  vi.doUnmock('./AccountMenuContent');
});

describe('the account menu, whose code follows the first screen', () => {
  it('keeps focus on its button when the menu takes over, then works from the keyboard', async () => {
    await freshJournal();
    const user = userEvent.setup();
    const first = await screen.findByRole('button', { name: 'Account menu' });
    expect(first).toHaveAttribute('aria-haspopup', 'menu');
    first.focus();
    // Focusing is using the page: the menu's code loads and replaces the button.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Account menu' })).not.toBe(first));
    const button = screen.getByRole('button', { name: 'Account menu' });
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: 'Settings' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(button).toHaveFocus();
  });

  it('opens as soon as its code is in when pressed before', async () => {
    await freshJournal();
    const first = await screen.findByRole('button', { name: 'Account menu' });
    fireEvent.keyDown(first, { key: 'Enter' });
    expect(await screen.findByRole('menuitem', { name: 'Export' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Sign Out' })).toBeInTheDocument();
  });

  it('says once that it cannot open when its code cannot be downloaded, and keeps its button', async () => {
    vi.doMock('./AccountMenuContent', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    await freshJournal();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    const toasts = within(screen.getByRole('region', { name: /Notifications/ }));
    expect(await toasts.findByText(messages.journalScreen.loadError)).toBeInTheDocument();
    // The press was a pointerdown and a click: still one toast.
    await new Promise((done) => setTimeout(done, 50));
    expect(toasts.getAllByText(messages.journalScreen.loadError)).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Account menu' })).toBeInTheDocument();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});
