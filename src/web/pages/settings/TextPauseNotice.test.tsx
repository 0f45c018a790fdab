import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError } from '../../api/fake-api';
import { buildProfile, findControls, installSettingsApi, renderSettings, toasts } from './test-support';

const copy = messages.textPause;
const DAY_MS = 86_400_000;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('settings: texts paused by PAUSE', () => {
  it('says until when texts are paused, in the journal’s time zone', async () => {
    const until = new Date(Date.now() + 3 * DAY_MS);
    installSettingsApi(buildProfile({ paused_until: until.toISOString(), timezone: 'America/Chicago' }));
    renderSettings();
    const expected = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(until);
    expect(await screen.findByRole('heading', { name: copy.until(expected) })).toBeInTheDocument();
    expect(screen.getByText(copy.lead)).toBeInTheDocument();
  });

  it('ends the pause with one button, from the keyboard, and confirms it', async () => {
    const api = installSettingsApi(buildProfile({ paused_until: new Date(Date.now() + DAY_MS).toISOString() }));
    renderSettings();
    const resume = await screen.findByRole('button', { name: copy.resume });
    const user = userEvent.setup();
    resume.focus();
    await user.keyboard('{Enter}');
    expect(await toasts().findByText(copy.resumed)).toBeInTheDocument();
    expect(api.requestsTo('PATCH /api/profile').map((r) => r.body)).toEqual([{ paused_until: null }]);
    expect(screen.queryByRole('button', { name: copy.resume })).not.toBeInTheDocument();
  });

  it('keeps the notice and says so when ending the pause fails', async () => {
    const api = installSettingsApi(buildProfile({ paused_until: new Date(Date.now() + DAY_MS).toISOString() }));
    api.once('PATCH /api/profile', apiError(503, 'UNAVAILABLE', 'Unavailable'));
    renderSettings();
    await userEvent.setup().click(await screen.findByRole('button', { name: copy.resume }));
    expect(await screen.findByText(copy.failed)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: copy.resume })).toBeInTheDocument();
  });

  it('shows nothing when texts are not paused, or the pause is over', async () => {
    installSettingsApi(buildProfile({ paused_until: new Date(Date.now() - 60_000).toISOString() }));
    renderSettings();
    await findControls();
    expect(screen.queryByRole('button', { name: copy.resume })).not.toBeInTheDocument();
    expect(screen.queryByText(copy.lead)).not.toBeInTheDocument();
  });
});
