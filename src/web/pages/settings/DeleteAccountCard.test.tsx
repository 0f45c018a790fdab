import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, reply } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { installSettingsApi, renderSettings, toasts } from '../../test/settings';

const copy = messages.accountDeletion;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const summary = { userEmail: 'me@example.com', deletedRecords: { journalEntries: 3, journalPhotos: 1, smsMessages: 2 }, filesDeleted: [], subscriptionCanceled: true };

async function dangerZone() {
  return within(await screen.findByRole('region', { name: copy.title }));
}

async function openConfirmation(user: ReturnType<typeof userEvent.setup>) {
  await user.click((await dangerZone()).getByRole('button', { name: copy.open }));
  return within(await screen.findByRole('dialog', { name: copy.dialogTitle }));
}

describe('Delete my account', () => {
  it('offers the export first, in its own dialog', async () => {
    installSettingsApi();
    renderSettings();
    const user = userEvent.setup();
    await user.click((await dangerZone()).getByRole('button', { name: copy.exportFirst }));
    expect(await screen.findByRole('dialog', { name: 'Export your journal' })).toBeInTheDocument();
  });

  it('deletes only once DELETE is typed exactly, then signs out to the home page with a toast', async () => {
    const api = installSettingsApi();
    api.on('DELETE /api/auth/user', reply(200, { success: true, summary }));
    renderSettings();
    const user = userEvent.setup();
    const dialog = await openConfirmation(user);
    const confirm = dialog.getByRole('button', { name: copy.confirm });
    const field = dialog.getByLabelText(copy.confirmLabel);
    expect(field).toHaveFocus();
    expect(confirm).toBeDisabled();
    await user.type(field, 'delete');
    expect(confirm).toBeDisabled();
    await user.clear(field);
    await user.type(field, 'DELETE');
    expect(confirm).toBeEnabled();
    await user.keyboard('{Enter}');

    expect(await screen.findByText('/ page')).toBeInTheDocument();
    expect(api.requestsTo('DELETE /api/auth/user').map((r) => r.body)).toEqual([{ confirmationText: 'DELETE' }]);
    expect(sessionStore.get()).toBeNull();
    expect(await toasts().findByText(copy.deleted)).toBeInTheDocument();
    expect(toasts().getByText(copy.deletedDescription)).toBeInTheDocument();
  });

  it('keeps the user signed in and says why when the deletion fails', async () => {
    const api = installSettingsApi();
    api.on('DELETE /api/auth/user', apiError(503, 'UNAVAILABLE', copy.billingFailed));
    renderSettings();
    const user = userEvent.setup();
    const dialog = await openConfirmation(user);
    await user.type(dialog.getByLabelText(copy.confirmLabel), 'DELETE');
    await user.click(dialog.getByRole('button', { name: copy.confirm }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(copy.billingFailed);
    expect(sessionStore.get()).not.toBeNull();
    expect(screen.queryByText('/ page')).not.toBeInTheDocument();

    // Cancel closes the dialog and hands focus back to the button that opened it.
    await user.click(dialog.getByRole('button', { name: copy.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect((await dangerZone()).getByRole('button', { name: copy.open })).toHaveFocus();
  });
});
