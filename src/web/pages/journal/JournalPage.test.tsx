import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { vaultMessages } from '../../../shared/vault-messages';
import { fakeSession, installFakeApi, networkDown, reply, type FakeApi } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { RequireAuth } from '../../features/auth/guards';
import { renderApp, markerRoute } from '../../test/render-app';
import { JournalPage } from './JournalPage';
import { loadAccountMenu } from './AccountMenu';
import { lockVault, vaultKeys } from '../../features/vault/key-store';
import { createVault } from '../../features/vault/vault-crypto';

const PASSPHRASE = 'otters hold hands while sleeping';

const routes = [{ path: '/journal', element: <RequireAuth><JournalPage /></RequireAuth> }, markerRoute('/'), markerRoute('/sign-in'), markerRoute('/settings')];
const toasts = () => within(screen.getByRole('region', { name: /Notifications/ }));

let api: FakeApi;
// The menu's code is in before the page renders, as it is once the reader has moved: a press then lands
// on the menu's own button. (AccountMenu.test covers a press that comes before the code.)
beforeAll(loadAccountMenu);
beforeEach(() => {
  api = installFakeApi();
  api.on('GET /api/entries', reply(200, { entries: [], nextCursor: null }));
  api.on('GET /api/stats', reply(200, { current_streak: 0, total_days: 0, total_photos: 0, total_words: 0 }));
  sessionStore.set(fakeSession({ access_token: 'token-1' }));
});
afterEach(() => {
  // The page goes first: a vault locked under it would read it again.
  cleanup();
  lockVault();
  vi.unstubAllGlobals();
});

async function openMenu() {
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByRole('button', { name: 'Account menu' }));
  return user;
}

describe('journal shell', () => {
  it('shows the header and, with no entries yet, how to write the first one from this phone', async () => {
    renderApp(routes, ['/journal']);
    expect(screen.getByText(messages.journal.tagline)).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Welcome to your journal' })).toBeInTheDocument();
    expect(screen.getByText(/Text from \(202\) 555-0123/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Your First Entry' })).toBeInTheDocument();
  });

  it('does not offer the N shortcut behind a locked vault, where N writes nothing', async () => {
    api.on('GET /api/subscription', reply(200, { subscribed: false, subscription_tier: null, subscription_end: null, is_trial: true, trial_end: '2099-01-01T00:00:00.000Z' }));
    // The server says the journal is a Vault's; this tab holds no keys for it.
    api.on('GET /api/entries', reply(200, { entries: [], nextCursor: null, vault: true }));
    renderApp(routes, ['/journal']);
    const hint = await screen.findByText(messages.journalPage.shortcutBefore, { exact: false });
    await waitFor(() => expect(hint.closest('p')).toHaveClass('hidden'));
    expect(hint.closest('p')).not.toHaveClass('sm:block');
    // And N does nothing there: the unlock is what the page offers.
    await userEvent.setup({ delay: null }).keyboard('n');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: vaultMessages.journal.lockedTitle })).toBeInTheDocument();
  });

  it('offers the unlock where Export needs the locked vault, then the export itself', async () => {
    const vault = await createVault(PASSPHRASE);
    api.on('GET /api/subscription', reply(200, { subscribed: false, subscription_tier: null, subscription_end: null, is_trial: true, trial_end: '2099-01-01T00:00:00.000Z' }));
    api.on('GET /api/entries', reply(200, { entries: [], nextCursor: null, vault: true }));
    api.on('GET /api/vault', reply(200, { enabled: true, state: 'on', public_key: vault.publicKey, wrapped_keys: vault.wrappedKeys, sealed_entries: 0, total_entries: 0 }));
    renderApp(routes, ['/journal']);
    await screen.findByRole('heading', { name: vaultMessages.journal.lockedTitle });
    const user = await openMenu();
    await user.click(await screen.findByRole('menuitem', { name: 'Export' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Export your journal' }));
    expect(dialog.getByText(vaultMessages.journal.exportLocked)).toBeInTheDocument();
    expect(dialog.queryByRole('radio', { name: /PDF/ })).not.toBeInTheDocument();
    await user.type(await dialog.findByLabelText(vaultMessages.card.passphraseLabel), PASSPHRASE);
    await user.click(dialog.getByRole('button', { name: vaultMessages.card.unlock }));
    // Unlocked: the same dialog goes on to the export, over the opened journal.
    const opened = within(await screen.findByRole('dialog', { name: 'Export your journal' }, { timeout: 5000 }));
    expect(await opened.findByRole('radio', { name: /PDF/ }, { timeout: 5000 })).toBeInTheDocument();
    expect(opened.queryByText(vaultMessages.journal.exportLocked)).not.toBeInTheDocument();
    expect(vaultKeys()).not.toBeNull();
  });

  it('has Settings in the account menu', async () => {
    renderApp(routes, ['/journal']);
    await openMenu();
    expect(await screen.findByRole('menuitem', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(screen.getByRole('menuitem', { name: 'Export' })).toBeInTheDocument();
  });

  it('signs out from the account menu and goes home', async () => {
    api.on('POST /api/auth/logout', reply(204));
    const app = renderApp(routes, ['/journal']);
    const user = await openMenu();
    await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));

    expect(await screen.findByText('/ page')).toBeInTheDocument();
    expect(app.path()).toBe('/');
    expect(sessionStore.get()).toBeNull();
    expect(await toasts().findByText(messages.signOut.done)).toBeInTheDocument();
    await waitFor(() => expect(api.requestsTo('POST /api/auth/logout')).toHaveLength(1));
    const [logout] = api.requestsTo('POST /api/auth/logout');
    expect(logout!.body).toEqual({ scope: 'local' });
    expect(logout!.headers.Authorization).toBe('Bearer token-1');
  });

  it('still signs out when the server cannot be reached', async () => {
    api.on('POST /api/auth/logout', networkDown);
    const app = renderApp(routes, ['/journal']);
    const user = await openMenu();
    await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));
    expect(await toasts().findByText(messages.signOut.done)).toBeInTheDocument();
    expect(app.path()).toBe('/');
    expect(sessionStore.get()).toBeNull();
  });
});
