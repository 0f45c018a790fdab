import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { buildProfile, findControls, installSettingsApi, renderSettings } from '../../test/settings';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Settings → On This Day texts', () => {
  it('is on by default and saves when turned off', async () => {
    const api = installSettingsApi();
    renderSettings();
    const c = await findControls();
    const onThisDay = screen.getByRole('switch', { name: messages.onThisDay.switchLabel });
    expect(onThisDay).toBeChecked();
    const user = userEvent.setup();
    await user.click(onThisDay);
    await user.click(c.save);
    await waitFor(() => expect(api.requestsTo('PATCH /api/profile').map((r) => r.body)).toEqual([{ on_this_day_enabled: false }]));
    await waitFor(() => expect(c.save).toBeDisabled());
    expect(onThisDay).not.toBeChecked();
  });

  it('shows the stored choice, and has nothing to add to when the daily reminder is off', async () => {
    installSettingsApi(buildProfile({ on_this_day_enabled: false, reminder_enabled: false }));
    renderSettings();
    await findControls();
    const onThisDay = screen.getByRole('switch', { name: messages.onThisDay.switchLabel });
    expect(onThisDay).not.toBeChecked();
    expect(onThisDay).toBeDisabled();
  });
});
