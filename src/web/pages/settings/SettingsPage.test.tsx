import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages, titled } from '../../../shared/messages';
import { apiError, reply } from '../../test/fake-api';
import { JOURNAL_NUMBER_DISPLAY, JOURNAL_NUMBER_SMS_HREF } from '../../components/marketing/journalNumber';
import { settingsCopy } from './copy';
import { buildProfile, findControls, installSettingsApi, renderSettings, toasts } from '../../test/settings';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('settings page states', () => {
  it('says it is loading while the profile loads', async () => {
    const api = installSettingsApi();
    api.on('GET /api/profile', () => new Promise(() => undefined));
    renderSettings();
    expect(await screen.findByText('Loading settings...')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Settings', level: 1 })).toBeInTheDocument();
  });

  it('says when the profile cannot be loaded, and tries again', async () => {
    const api = installSettingsApi();
    api.once('GET /api/profile', apiError(503, 'UNAVAILABLE', 'Unavailable'));
    renderSettings();
    expect(await screen.findByText(settingsCopy.loadErrorTitle)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: settingsCopy.retry }));
    expect(await screen.findByRole('switch', { name: 'Daily reminder' })).toBeInTheDocument();
  });

  it('links back to the journal', async () => {
    installSettingsApi();
    const app = renderSettings();
    await findControls();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Back to journal' }));
    expect(await screen.findByText('/journal page')).toBeInTheDocument();
    expect(app.path()).toBe('/journal');
  });
});

describe('automated messages', () => {
  it('shows the stored settings, the time in 12-hour form', async () => {
    installSettingsApi(buildProfile({ reminder_time: '07:45', timezone: 'America/Phoenix', weekly_recap_enabled: false, prompts_enabled: false }));
    renderSettings();
    const c = await findControls();
    expect(c.dailyReminder).toBeChecked();
    expect(c.hour).toHaveValue('7');
    expect(c.minute).toHaveDisplayValue('45');
    expect(c.period).toHaveValue('AM');
    expect(c.timezone).toHaveDisplayValue('Mountain-Arizona');
    expect(c.weeklyRecap).not.toBeChecked();
    expect(c.dailyPrompts).not.toBeChecked();
    expect(screen.getByText(/sent on Sundays at 6pm/)).toBeInTheDocument();
  });

  it('reads 00:xx as 12 AM and 12:xx as 12 PM', async () => {
    const api = installSettingsApi(buildProfile({ reminder_time: '00:15' }));
    const first = renderSettings();
    let c = await findControls();
    expect([c.hour.value, c.minute.value, c.period.value]).toEqual(['12', '15', 'AM']);
    first.unmount();

    api.on('GET /api/profile', reply(200, buildProfile({ reminder_time: '12:30' })));
    renderSettings();
    c = await findControls();
    expect([c.hour.value, c.minute.value, c.period.value]).toEqual(['12', '30', 'PM']);
  });

  it('offers the seven zones by their common names', async () => {
    installSettingsApi();
    renderSettings();
    const c = await findControls();
    expect([...c.timezone.options].map((o) => o.textContent)).toEqual(['Eastern', 'Central', 'Mountain', 'Mountain-Arizona', 'Pacific', 'Alaska', 'Hawaii']);
    expect([...c.timezone.options].map((o) => o.value)).toEqual([
      'America/New_York',
      'America/Chicago',
      'America/Denver',
      'America/Phoenix',
      'America/Los_Angeles',
      'America/Anchorage',
      'Pacific/Honolulu',
    ]);
    expect([...c.minute.options].map((o) => o.textContent)).toEqual(['00', '15', '30', '45']);
    expect([...c.hour.options].map((o) => Number(o.value)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('shows and changes the account’s one time zone, also with the reminder off, and says what follows it', async () => {
    const api = installSettingsApi(buildProfile({ timezone: 'America/Chicago', reminder_timezone: 'America/New_York', reminder_enabled: false }));
    renderSettings();
    const c = await findControls();
    expect(c.timezone).toHaveDisplayValue('Central');
    expect(c.timezone).toBeEnabled();
    expect(c.timezone).toHaveAccessibleDescription(settingsCopy.timezoneHelp);
    const user = userEvent.setup();
    await user.selectOptions(c.timezone, 'Alaska');
    await user.click(c.save);
    await toasts().findByText(messages.profile.updated);
    expect(api.requestsTo('PATCH /api/profile')[0]!.body).toEqual({ timezone: 'America/Anchorage' });
  });

  it('lists a stored zone outside the seven by its own name', async () => {
    installSettingsApi(buildProfile({ timezone: 'America/Detroit' }));
    renderSettings();
    const c = await findControls();
    expect(c.timezone).toHaveDisplayValue('America/Detroit');
    expect(c.timezone.options).toHaveLength(8);
  });

  it('fills in the defaults where the profile has no value', async () => {
    const bare: Record<string, unknown> = { ...buildProfile() };
    for (const field of ['reminder_enabled', 'reminder_time', 'timezone', 'weekly_recap_enabled', 'prompts_enabled']) bare[field] = null;
    installSettingsApi(bare as never);
    renderSettings();
    const c = await findControls();
    expect(c.dailyReminder).toBeChecked();
    expect([c.hour.value, c.minute.value, c.period.value]).toEqual(['8', '0', 'PM']);
    expect(c.timezone).toHaveDisplayValue('Eastern');
    expect(c.weeklyRecap).toBeChecked();
    expect(c.save).toBeDisabled();
  });

  it('enables Save only while the form differs from the stored profile', async () => {
    installSettingsApi();
    renderSettings();
    const c = await findControls();
    const user = userEvent.setup();
    expect(c.save).toBeDisabled();
    expect(c.cancel).toBeDisabled();

    await user.selectOptions(c.hour, '9');
    expect(c.save).toBeEnabled();
    await user.selectOptions(c.hour, '8');
    expect(c.save).toBeDisabled();

    await user.click(c.weeklyRecap);
    expect(c.save).toBeEnabled();
    await user.click(c.weeklyRecap);
    expect(c.save).toBeDisabled();
  });

  it('saves only the changed fields, writing 12 AM as 00:xx', async () => {
    const api = installSettingsApi();
    renderSettings();
    const c = await findControls();
    const user = userEvent.setup();
    await user.selectOptions(c.hour, '12');
    await user.selectOptions(c.minute, '15');
    await user.selectOptions(c.period, 'AM');
    await user.click(c.weeklyRecap);
    await user.click(c.save);

    expect(await toasts().findByText(messages.profile.updated)).toBeInTheDocument();
    expect(api.requestsTo('PATCH /api/profile').map((r) => r.body)).toEqual([{ reminder_time: '00:15', weekly_recap_enabled: false }]);
    expect(api.requestsTo('PATCH /api/profile')[0]!.headers.Authorization).toBe('Bearer token-1');
    // What was saved is now the stored profile.
    await waitFor(() => expect(c.save).toBeDisabled());
    expect([c.hour.value, c.minute.value, c.period.value]).toEqual(['12', '15', 'AM']);
  });

  it('writes 12 PM as 12:xx and sends a new time zone', async () => {
    const api = installSettingsApi(buildProfile({ reminder_time: '09:30' }));
    renderSettings();
    const c = await findControls();
    const user = userEvent.setup();
    await user.selectOptions(c.hour, '12');
    await user.selectOptions(c.period, 'PM');
    await user.selectOptions(c.timezone, 'Pacific');
    await user.click(c.save);
    await toasts().findByText(messages.profile.updated);
    expect(api.requestsTo('PATCH /api/profile')[0]!.body).toEqual({ reminder_time: '12:30', timezone: 'America/Los_Angeles' });
  });

  it('turns the reminder and daily prompts off', async () => {
    const api = installSettingsApi();
    renderSettings();
    const c = await findControls();
    const user = userEvent.setup();
    await user.click(c.dailyPrompts);
    await user.click(c.dailyReminder);
    // With no daily reminder, its time and prompts have nothing to apply to.
    expect(c.hour).toBeDisabled();
    expect(c.dailyPrompts).toBeDisabled();
    await user.click(c.save);
    await toasts().findByText(messages.profile.updated);
    expect(api.requestsTo('PATCH /api/profile')[0]!.body).toEqual({ reminder_enabled: false, prompts_enabled: false });
  });

  it('says when saving fails and keeps the changes', async () => {
    const api = installSettingsApi();
    api.on('PATCH /api/profile', apiError(500, 'INTERNAL', 'Boom'));
    renderSettings();
    const c = await findControls();
    const user = userEvent.setup();
    await user.click(c.weeklyRecap);
    await user.click(c.save);

    expect(await toasts().findByText(settingsCopy.updateFailedTitle)).toBeInTheDocument();
    expect(toasts().getByText(settingsCopy.updateFailed)).toBeInTheDocument();
    expect(titled(settingsCopy.updateFailedTitle, settingsCopy.updateFailed)).toBe(messages.profile.updateFailed);
    expect(c.weeklyRecap).not.toBeChecked();
    expect(c.save).toBeEnabled();
  });

  it('puts the stored settings back on Cancel', async () => {
    const api = installSettingsApi();
    renderSettings();
    const c = await findControls();
    const user = userEvent.setup();
    await user.selectOptions(c.timezone, 'Hawaii');
    await user.click(c.dailyReminder);
    await user.click(c.cancel);

    expect(c.timezone).toHaveDisplayValue('Eastern');
    expect(c.dailyReminder).toBeChecked();
    expect(c.save).toBeDisabled();
    expect(api.requestsTo('PATCH /api/profile')).toHaveLength(0);
  });

  it('warns an opted-out user that texts are off until they text START, and disables the switches', async () => {
    installSettingsApi(buildProfile({ is_opted_out: true }));
    renderSettings();
    const c = await findControls();
    expect(screen.getByText('Text messages are off')).toBeInTheDocument();
    expect(screen.getByText(/To turn them back on, text START to your journal number/)).toBeInTheDocument();
    expect(screen.queryByText(/paused/i)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: JOURNAL_NUMBER_DISPLAY })).toHaveAttribute('href', JOURNAL_NUMBER_SMS_HREF);
    expect(c.dailyReminder).toBeDisabled();
    expect(c.weeklyRecap).toBeDisabled();
    expect(c.dailyPrompts).toBeDisabled();
  });

  it('shows no opt-out warning to a user who gets texts', async () => {
    installSettingsApi();
    renderSettings();
    const c = await findControls();
    expect(screen.queryByText(settingsCopy.optedOutTitle)).not.toBeInTheDocument();
    expect(c.dailyReminder).toBeEnabled();
  });
});
