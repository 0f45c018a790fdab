import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reply } from '../../test/fake-api';
import { securityCopy } from '../../features/security/copy';
import { buildProfile, installSettingsApi, renderSettings } from '../../test/settings';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const sessions = [
  { id: 's-here', created_at: '2026-11-20T10:00:00.000Z', last_seen_at: '2026-11-20T12:00:00.000Z', device: 'Chrome on macOS', current: true },
  { id: 's-phone', created_at: '2026-11-19T10:00:00.000Z', last_seen_at: '2026-11-19T12:00:00.000Z', device: 'Safari on iOS', current: false },
  { id: 's-old', created_at: '2026-11-01T10:00:00.000Z', last_seen_at: '2026-11-02T12:00:00.000Z', device: null, current: false },
];

function installSecurityApi() {
  const api = installSettingsApi(buildProfile());
  let live = sessions;
  api.on('GET /api/auth/sessions', () => reply(200, { sessions: live }));
  api.on('DELETE /api/auth/sessions/s-phone', () => {
    live = live.filter((s) => s.id !== 's-phone');
    return reply(204);
  });
  api.on('DELETE /api/auth/sessions/s-old', () => {
    live = live.filter((s) => s.id !== 's-old');
    return reply(204);
  });
  api.on('GET /api/auth/passkeys', reply(200, { passkeys: [{ id: 'p1', name: 'MacBook Touch ID', created_at: '2026-11-01T10:00:00.000Z', last_used_at: null }] }));
  api.on('GET /api/auth/user', reply(200, { id: 'user-1', second_factors: ['passkey', 'totp', 'recovery_code'] }));
  api.on('GET /api/auth/events', reply(200, { events: [{ at: '2026-11-20T10:00:00.000Z', kind: 'sign_in', method: 'passkey', device: 'Chrome on macOS' }] }));
  return api;
}

async function securityCard() {
  return within(await screen.findByRole('region', { name: securityCopy.title }));
}

describe('Settings → Sign-in and security', () => {
  it('lists passkeys, says two-step verification is on, and shows the security log in words', async () => {
    installSecurityApi();
    renderSettings();
    const card = await securityCard();
    expect(await card.findByText('MacBook Touch ID')).toBeInTheDocument();
    expect(card.getByText(/never used/)).toBeInTheDocument();
    expect(await card.findByText(securityCopy.totpOn)).toBeInTheDocument();
    const log = card.getByRole('list', { name: securityCopy.logTitle });
    expect(await within(log).findByText('Signed in with a passkey')).toBeInTheDocument();
  });

  it('signs out everywhere else: every other session, not this one', async () => {
    const api = installSecurityApi();
    renderSettings();
    const card = await securityCard();
    const list = card.getByRole('list', { name: securityCopy.sessionsTitle });
    expect(await within(list).findAllByRole('listitem')).toHaveLength(3);
    expect(within(list).getByText(securityCopy.thisDevice)).toBeInTheDocument();
    await userEvent.setup({ delay: null }).click(card.getByRole('button', { name: securityCopy.signOutOthers }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(api.requestsTo('DELETE /api/auth/sessions/s-phone')).toHaveLength(1);
    expect(api.requestsTo('DELETE /api/auth/sessions/s-old')).toHaveLength(1);
    expect(api.requestsTo('DELETE /api/auth/sessions/s-here')).toHaveLength(0);
  });
});
