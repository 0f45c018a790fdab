import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, reply } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { settingsCopy } from './copy';
import { findControls, installSettingsApi, renderSettings, toasts } from '../../test/settings';
import { loadAccountMenu } from '../journal/AccountMenu';

// The menu's code is in before the page renders, as it is once the reader has moved: a press then lands
// on the menu's own button. (AccountMenu.test covers a press that comes before the code.)
beforeAll(loadAccountMenu);
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Changes the weekly recap, then tries to go back to the journal. */
async function leaveWithChanges() {
  const c = await findControls();
  const user = userEvent.setup();
  await user.click(c.weeklyRecap);
  await user.click(screen.getByRole('link', { name: 'Back to journal' }));
  const dialog = await screen.findByRole('alertdialog', { name: settingsCopy.unsavedTitle });
  return { c, user, dialog: within(dialog) };
}

describe('leaving with unsaved changes', () => {
  it('leaves at once when nothing changed', async () => {
    installSettingsApi();
    const app = renderSettings();
    await findControls();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Back to journal' }));
    expect(await screen.findByText('/journal page')).toBeInTheDocument();
    expect(app.path()).toBe('/journal');
  });

  it('asks with three choices; Cancel stays with the changes', async () => {
    installSettingsApi();
    const app = renderSettings();
    const { c, user, dialog } = await leaveWithChanges();
    expect(dialog.getAllByRole('button').map((b) => b.textContent)).toEqual(['Cancel', 'No, do not save', 'Yes, save and exit']);

    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(app.path()).toBe('/settings');
    expect(c.weeklyRecap).not.toBeChecked();
    expect(c.save).toBeEnabled();
  });

  it('Escape also stays', async () => {
    installSettingsApi();
    const app = renderSettings();
    const { user } = await leaveWithChanges();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(app.path()).toBe('/settings');
  });

  it('No, do not save leaves without saving', async () => {
    const api = installSettingsApi();
    const app = renderSettings();
    const { user, dialog } = await leaveWithChanges();
    await user.click(dialog.getByRole('button', { name: 'No, do not save' }));
    expect(await screen.findByText('/journal page')).toBeInTheDocument();
    expect(app.path()).toBe('/journal');
    expect(api.requestsTo('PATCH /api/profile')).toHaveLength(0);
  });

  it('Yes, save and exit saves the changed fields, then leaves', async () => {
    const api = installSettingsApi();
    const app = renderSettings();
    const { user, dialog } = await leaveWithChanges();
    await user.click(dialog.getByRole('button', { name: 'Yes, save and exit' }));
    expect(await screen.findByText('/journal page')).toBeInTheDocument();
    expect(app.path()).toBe('/journal');
    expect(api.requestsTo('PATCH /api/profile').map((r) => r.body)).toEqual([{ weekly_recap_enabled: false }]);
    expect(await toasts().findByText(messages.profile.updated)).toBeInTheDocument();
  });

  it('stays with the changes when saving on the way out fails', async () => {
    const api = installSettingsApi();
    api.on('PATCH /api/profile', apiError(400, 'INVALID_INPUT', 'Invalid input'));
    const app = renderSettings();
    const { c, user, dialog } = await leaveWithChanges();
    await user.click(dialog.getByRole('button', { name: 'Yes, save and exit' }));
    expect(await toasts().findByText(settingsCopy.updateFailed)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(app.path()).toBe('/settings');
    expect(c.weeklyRecap).not.toBeChecked();
  });

  it('does not ask once the changes are saved', async () => {
    installSettingsApi();
    const app = renderSettings();
    const c = await findControls();
    const user = userEvent.setup();
    await user.click(c.weeklyRecap);
    await user.click(c.save);
    await waitFor(() => expect(c.save).toBeDisabled());
    await user.click(screen.getByRole('link', { name: 'Back to journal' }));
    expect(await screen.findByText('/journal page')).toBeInTheDocument();
    expect(app.path()).toBe('/journal');
  });

  it('does not stand in the way of signing out', async () => {
    const api = installSettingsApi();
    api.on('POST /api/auth/logout', reply(204));
    const app = renderSettings();
    const c = await findControls();
    const user = userEvent.setup();
    await user.click(c.weeklyRecap);
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));
    expect(await screen.findByText('/ page')).toBeInTheDocument();
    expect(app.path()).toBe('/');
    expect(sessionStore.get()).toBeNull();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('has the browser ask before the tab closes, only while there are changes', async () => {
    installSettingsApi();
    renderSettings();
    const c = await findControls();
    const closeTab = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(closeTab()).toBe(false);
    await userEvent.setup().click(c.dailyReminder);
    expect(closeTab()).toBe(true);
    await userEvent.setup().click(c.cancel);
    expect(closeTab()).toBe(false);
  });
});
