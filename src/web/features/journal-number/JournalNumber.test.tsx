import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { fakeSession, installFakeApi, reply, type FakeApi } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { RequireAuth } from '../auth/guards';
import { markerRoute, renderApp } from '../../test/render-app';
import { JournalPage } from '../../pages/journal/JournalPage';
import { SettingsPage } from '../../pages/settings/SettingsPage';
import { buildProfile } from '../../test/settings';
import { journalNumberVCard } from './vcard';
import { loadAccountMenu } from '../../pages/journal/AccountMenu';

// The server's number, different from the one the build published and from the user's own (+12025550123).
const SERVER_NUMBER = '+13125550199';

const routes = [
  { path: '/journal', element: <RequireAuth><JournalPage /></RequireAuth> },
  { path: '/settings', element: <RequireAuth><SettingsPage /></RequireAuth> },
  markerRoute('/sign-in'),
];

let api: FakeApi;
// The menu's code is in before the page renders, as it is once the reader has moved: a press then lands
// on the menu's own button. (AccountMenu.test covers a press that comes before the code.)
beforeAll(loadAccountMenu);
beforeEach(() => {
  api = installFakeApi();
  api.on('GET /api/entries', reply(200, { entries: [], nextCursor: null }));
  api.on('GET /api/stats', reply(200, { current_streak: 0, total_days: 0, total_photos: 0, total_words: 0 }));
  api.on('GET /api/profile', reply(200, buildProfile({ journal_number: SERVER_NUMBER })));
  sessionStore.set(fakeSession({ access_token: 'token-1' }));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Catches the .vcf the page saves, as the browser would download it. */
function catchDownloads() {
  const saved: { blob: Blob; name: string }[] = [];
  let lastBlob: Blob | undefined;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    lastBlob = blob as Blob;
    return 'blob:contact';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (lastBlob) saved.push({ blob: lastBlob, name: this.download });
  });
  return saved;
}

describe('the journal number in the signed-in app', () => {
  it('is on the empty journal, as a tap-to-text link to the journal number (not the user’s own)', async () => {
    renderApp(routes, ['/journal']);
    const link = await screen.findByRole('link', { name: 'Text (312) 555-0199' });
    expect(link).toHaveAttribute('href', `sms:${SERVER_NUMBER}`);
    expect(screen.queryByRole('link', { name: /202\) 555-0123/ })).not.toBeInTheDocument();
  });

  it('saves the journal number to contacts as a vCard named Jotline', async () => {
    const saved = catchDownloads();
    renderApp(routes, ['/journal']);
    await screen.findByRole('link', { name: 'Text (312) 555-0199' });
    await userEvent.setup().click(screen.getByRole('button', { name: messages.journalNumber.saveContact }));
    expect(saved).toHaveLength(1);
    expect(saved[0]!.name).toBe('jotline.vcf');
    const card = await saved[0]!.blob.text();
    expect(card).toBe(journalNumberVCard(SERVER_NUMBER));
    expect(card).toMatch(/^BEGIN:VCARD\r\nVERSION:3\.0\r\n/);
    expect(card).toContain('FN:Jotline\r\n');
    expect(card).toContain(`TEL;TYPE=CELL,VOICE:${SERVER_NUMBER}\r\n`);
  });

  it('is in the account menu, to text and to save', async () => {
    const saved = catchDownloads();
    renderApp(routes, ['/journal']);
    const user = userEvent.setup();
    await screen.findByRole('link', { name: 'Text (312) 555-0199' });
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Text (312) 555-0199' })).toHaveAttribute('href', `sms:${SERVER_NUMBER}`);
    await user.click(within(menu).getByRole('menuitem', { name: messages.journalNumber.saveContact }));
    expect(saved.map((s) => s.name)).toEqual(['jotline.vcf']);
  });

  it('is in settings', async () => {
    api.on('GET /api/subscription', reply(200, { subscribed: true, subscription_tier: 'monthly', subscription_end: '2027-03-03T12:00:00.000Z', is_trial: false, trial_end: null }));
    renderApp(routes, ['/settings']);
    const section = await screen.findByRole('region', { name: messages.journalNumber.label });
    expect(within(section).getByRole('link', { name: 'Text (312) 555-0199' })).toHaveAttribute('href', `sms:${SERVER_NUMBER}`);
    expect(within(section).getByRole('button', { name: messages.journalNumber.saveContact })).toBeInTheDocument();
  });
});
