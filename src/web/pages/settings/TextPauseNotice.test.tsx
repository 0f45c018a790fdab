import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, reply } from '../../test/fake-api';
import { buildProfile, findControls, installSettingsApi, renderSettings, toasts } from '../../test/settings';

const copy = messages.textPause;
const DAY_MS = 86_400_000;

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The server's event stream, driven by the test. */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  private listeners = new Map<string, Array<() => void>>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string) {
    act(() => {
      for (const listener of this.listeners.get(type) ?? []) listener();
    });
  }
  close() {}
}

describe('settings: texts paused by PAUSE', () => {
  it('shows a PAUSE texted while the page is open, without a reload', async () => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    const api = installSettingsApi(buildProfile({ paused_until: null }));
    api.on('POST /api/events/ticket', reply(200, { ticket: 'ticket-1' }));
    renderSettings();
    await findControls();
    expect(screen.queryByRole('button', { name: copy.resume })).not.toBeInTheDocument();
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    api.on('GET /api/profile', reply(200, buildProfile({ paused_until: new Date(Date.now() + 7 * DAY_MS).toISOString() })));
    FakeEventSource.instances[0]!.emit('profile.updated');
    expect(await screen.findByRole('button', { name: copy.resume })).toBeInTheDocument();
  });

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
