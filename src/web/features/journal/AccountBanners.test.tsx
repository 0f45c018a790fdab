import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { JournalWorkspace } from './JournalWorkspace';
import { failure, installJournalApi, json, page, renderJournal, stats, type JournalApi } from '../../test/journal';

const account = (over: Record<string, unknown>) => ({
  id: 'user-1',
  email: 'ada@example.com',
  email_verified: true,
  phone: '+12065557712',
  phone_verified: true,
  sign_up_lapses_at: null,
  is_admin: false,
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

let api: JournalApi;
beforeEach(() => {
  api = installJournalApi();
  api.on('GET /api/entries', json(200, page([])));
  api.on('GET /api/stats', json(200, stats({ total_days: 0 })));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the account above the journal', () => {
  it('tells an unverified sign-up to verify its phone, and when the sign-up lapses, and never that texts land', async () => {
    api.on('GET /api/auth/user', json(200, account({ phone_verified: false, sign_up_lapses_at: '2026-03-03T20:15:00.000Z' })));
    renderJournal(<JournalWorkspace />);
    const notice = await screen.findByRole('region', { name: messages.accountState.verifyPhoneTitle });
    expect(notice).toHaveTextContent('Texts from (206) 555-7712 are not added to your journal until you reply YES');
    expect(notice).toHaveTextContent(/Verify by \d{1,2}:15 [AP]M or this sign-up lapses/);
    expect(within(notice).getByRole('link', { name: messages.accountState.replyYes })).toHaveAttribute('href', expect.stringMatching(/^sms:\+1\d{10}\?body=YES$/));
    expect(within(notice).getByRole('button', { name: messages.accountState.changeNumber })).toBeInTheDocument();
    expect(await screen.findByText('Your entries will appear here.')).toBeInTheDocument();
    expect(screen.queryByText(/and it lands here/)).not.toBeInTheDocument();
  });

  it('sends the verification text again: "Sending..." while it goes, then says it was sent', async () => {
    api.on('GET /api/auth/user', json(200, account({ phone_verified: false, sign_up_lapses_at: '2026-03-03T20:15:00.000Z' })));
    let answer!: () => void;
    api.on('POST /api/auth/verify/resend', () => new Promise((resolve) => (answer = () => resolve({ status: 204 }))));
    renderJournal(<JournalWorkspace />);
    const notice = await screen.findByRole('region', { name: messages.accountState.verifyPhoneTitle });
    await userEvent.click(within(notice).getByRole('button', { name: messages.accountState.resend }));
    expect(within(notice).getByRole('button', { name: messages.accountState.resending })).toBeDisabled();
    expect(api.to('POST /api/auth/verify/resend').map((r) => r.json)).toEqual([{ type: 'sms' }]);
    answer();
    expect(await within(notice).findByRole('status')).toHaveTextContent(messages.accountState.resent);
    // Sent: not again from here (the daily allowance is small), until the page is opened again.
    expect(within(notice).getByRole('button', { name: messages.accountState.resend })).toBeDisabled();
  });

  it('says why the text was not sent (texts off after STOP), and lets the person try again once they texted START', async () => {
    api.on('GET /api/auth/user', json(200, account({ phone_verified: false, sign_up_lapses_at: '2026-03-03T20:15:00.000Z' })));
    const off = messages.accountState.textsOff('(202) 555-0123');
    api.on('POST /api/auth/verify/resend', failure(409, off, 'CONFLICT'), json(204));
    renderJournal(<JournalWorkspace />);
    const notice = await screen.findByRole('region', { name: messages.accountState.verifyPhoneTitle });
    await userEvent.click(within(notice).getByRole('button', { name: messages.accountState.resend }));
    expect(await within(notice).findByRole('alert')).toHaveTextContent(off);
    await userEvent.click(within(notice).getByRole('button', { name: messages.accountState.resend }));
    expect(await within(notice).findByRole('status')).toHaveTextContent(messages.accountState.resent);
    expect(within(notice).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says the text could not be sent when the server fails, without its words', async () => {
    api.on('GET /api/auth/user', json(200, account({ phone_verified: false, sign_up_lapses_at: '2026-03-03T20:15:00.000Z' })));
    api.on('POST /api/auth/verify/resend', failure(500, 'Internal error', 'INTERNAL'));
    renderJournal(<JournalWorkspace />);
    const notice = await screen.findByRole('region', { name: messages.accountState.verifyPhoneTitle });
    await userEvent.click(within(notice).getByRole('button', { name: messages.accountState.resend }));
    expect(await within(notice).findByRole('alert')).toHaveTextContent(messages.accountState.resendFailed);
    expect(within(notice).getByRole('button', { name: messages.accountState.resend })).toBeEnabled();
  });

  it('asks quietly to confirm the e-mail address, and sends the link again', async () => {
    api.on('GET /api/auth/user', json(200, account({ email_verified: false })));
    api.on('POST /api/auth/verify/resend', json(200, {}));
    renderJournal(<JournalWorkspace />);
    expect(await screen.findByText(messages.emailVerification.reminder('ada@example.com'))).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: messages.emailVerification.sendAgain }));
    await waitFor(() => expect(api.to('POST /api/auth/verify/resend')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: messages.accountState.verifyPhoneTitle })).not.toBeInTheDocument();
  });

  it('says nothing of either to a verified account', async () => {
    api.on('GET /api/auth/user', json(200, account({})));
    renderJournal(<JournalWorkspace />);
    await waitFor(() => expect(api.to('GET /api/auth/user')).toHaveLength(1));
    expect(await screen.findByRole('button', { name: 'Create Your First Entry' })).toBeInTheDocument();
    expect(screen.queryByText(/Confirm your e-mail/)).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: messages.accountState.verifyPhoneTitle })).not.toBeInTheDocument();
  });
});
