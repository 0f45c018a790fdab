import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { previewText, RESULT_PREVIEW_LENGTH, smsTestMessage } from '../../../shared/admin';
import { messages } from '../../../shared/messages';
import { apiError, installFakeApi, reply, type FakeApi } from '../../test/fake-api';
import { trialExpiry } from '../../features/admin/format';
import { renderApp } from '../../test/render-app';
import { AdminDashboardPage } from './AdminDashboardPage';
import { AdminSmsTestingPage } from './AdminSmsTestingPage';
import { AdminSubscribersPage } from './AdminSubscribersPage';
import { AdminTrialUsersPage } from './AdminTrialUsersPage';
import { AdminUserManagementPage } from './AdminUserManagementPage';
import { guarded, login, signInAsAdmin } from '../../test/admin';

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  signInAsAdmin(api);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const metrics = (count: number) => ({
  success: true,
  metrics: {
    paidSubscribers: 12,
    convertingTrials: 5,
    trialUsers: 34,
    trialConversionRate: 25.5,
    accountVerificationRate: 88,
    journalEntries: { count },
    avgEntriesPerUser: 3.2,
    newSignups: { count: count + 1 },
    series: [
      { date: '2026-03-01', signups: 2, entries: 5 },
      { date: '2026-03-02', signups: 4, entries: 9 },
    ],
  },
});

describe('admin dashboard', () => {
  it('shows the cards and asks for the chosen period', async () => {
    api.on('GET /api/admin/metrics', (request) => {
      const period = new URL(request.url, 'http://x').searchParams.get('period');
      return reply(200, metrics(period === 'week' ? 70 : 7));
    });
    renderApp([login, guarded('/admin/dashboard', <AdminDashboardPage />)], ['/admin/dashboard']);
    expect(await screen.findByText('Paid Subscribers')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('12')).toBeInTheDocument());
    expect(screen.getByText('34')).toBeInTheDocument();
    // Paid is charged: trials that chose a plan are said apart.
    expect(screen.getByText('Charged · 5 trials converting · View subscribers →')).toBeInTheDocument();
    expect(screen.getByText('25.5%')).toBeInTheDocument();
    expect(screen.getByText(messages.admin.conversionWindow)).toBeInTheDocument();
    expect(screen.getByTestId('entries-count')).toHaveTextContent('7');
    expect(screen.getByRole('link', { name: /Paid Subscribers/ })).toHaveAttribute('href', '/admin/dashboard/subscribers');
    expect(screen.getByRole('link', { name: /SMS Testing/ })).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('img', { name: /Sign-ups per day/ })).toBeInTheDocument();

    const user = userEvent.setup({ delay: null });
    await user.selectOptions(screen.getByLabelText('Journal entries period'), 'This Week');
    await waitFor(() => expect(screen.getByTestId('entries-count')).toHaveTextContent('70'));
    const periods = api.requestsTo('GET /api/admin/metrics').map((r) => new URL(r.url, 'http://x').searchParams.get('period'));
    expect(periods).toContain('today');
    expect(periods).toContain('week');
    expect(screen.getByTestId('signups-count')).toHaveTextContent('8');
  });

  it('says when metrics cannot be loaded', async () => {
    api.on('GET /api/admin/metrics', apiError(500, 'INTERNAL', 'boom'));
    renderApp([login, guarded('/admin/dashboard', <AdminDashboardPage />)], ['/admin/dashboard']);
    expect(await screen.findByText(messages.admin.metricsLoadFailed)).toBeInTheDocument();
    expect(await screen.findByText(messages.admin.metricsFetchFailed)).toBeInTheDocument();
  });
});

describe('trial expiration labels', () => {
  const now = new Date(2026, 2, 10, 12, 0);
  it('prefixes by days left', () => {
    expect(trialExpiry(new Date(2026, 2, 9).toISOString(), now).prefix).toBe('Expired');
    expect(trialExpiry(new Date(2026, 2, 10, 23).toISOString(), now).prefix).toBe('Ends today');
    expect(trialExpiry(new Date(2026, 2, 11, 9).toISOString(), now).prefix).toBe('Ends tomorrow');
    expect(trialExpiry(new Date(2026, 2, 12, 9).toISOString(), now).prefix).toBe('Ends in 2 days');
    expect(trialExpiry(new Date(2026, 2, 13, 9).toISOString(), now).prefix).toBe('Ends in 3 days');
    const plain = trialExpiry(new Date(2026, 2, 20, 9).toISOString(), now);
    expect(plain.prefix).toBeNull();
    expect(plain.date).toBe('Mar 20, 2026');
  });
});

describe('trial users page', () => {
  it('shows ending-soon cards, labelled rows and the expired switch', async () => {
    const inTwoDays = new Date(Date.now() + 2 * 86_400_000);
    inTwoDays.setHours(12, 0, 0, 0);
    api.on('GET /api/admin/trial-users', (request) => {
      const status = new URL(request.url, 'http://x').searchParams.get('status');
      if (status === 'expired') return reply(200, { success: true, data: { trialUsers: [], totalCount: 0, metrics: { newTrialsToday: 1, activeTrialUsers: 5, endingToday: 1, endingIn1Day: 2, endingIn2Days: 3, endingIn3Days: 4, expiredThisMonth: 6 } } });
      return reply(200, {
        success: true,
        data: {
          trialUsers: [{ id: 't1', phone_last_four: '4321', signup_date: '2026-01-01', trial_end: inTwoDays.toISOString() }],
          totalCount: 1,
          metrics: { newTrialsToday: 1, activeTrialUsers: 5, endingToday: 1, endingIn1Day: 2, endingIn2Days: 3, endingIn3Days: 4, expiredThisMonth: 6 },
        },
      });
    });
    renderApp([login, guarded('/tr', <AdminTrialUsersPage />)], ['/tr']);
    expect(await screen.findByText('Ends in 2 days')).toBeInTheDocument();
    expect(screen.getByText('••••4321')).toBeInTheDocument();
    expect(screen.getByText('10')).toBeInTheDocument();
    expect(screen.getByText('Showing 1 to 1 of 1')).toBeInTheDocument();
    await userEvent.setup({ delay: null }).click(screen.getByRole('switch', { name: 'Show expired trials' }));
    expect(await screen.findByText(messages.admin.noTrialUsers)).toBeInTheDocument();
    expect(api.requestsTo('GET /api/admin/trial-users').at(-1)!.url).toContain('status=expired');
  });
});

describe('subscribers page', () => {
  const row = (i: number) => ({ id: `s${i}`, phone_last_four: String(1000 + i), signup_date: '2026-01-02', subscription_date: i % 2 ? null : '2026-01-09' });
  const data = (page: number, total: number, count: number) => ({
    success: true,
    data: {
      subscribers: Array.from({ length: count }, (_, i) => row((page - 1) * 50 + i)),
      totalCount: total,
      metrics: { totalSubscribers: total, newSubscribersThisMonth: 3, averageDuration: 2.5, cancelledThisMonth: 1 },
    },
  });

  it('pages with Showing x to y of z and masks phones', async () => {
    api.on('GET /api/admin/subscribers', (request) => {
      const page = Number(new URL(request.url, 'http://x').searchParams.get('page'));
      return reply(200, page === 2 ? data(2, 120, 50) : data(1, 120, 50));
    });
    renderApp([login, guarded('/s', <AdminSubscribersPage />)], ['/s']);
    expect(await screen.findByText('Showing 1 to 50 of 120')).toBeInTheDocument();
    expect(screen.getByText('••••1000')).toBeInTheDocument();
    expect(screen.getAllByText('N/A').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Export CSV/ })).toBeEnabled();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Showing 51 to 100 of 120')).toBeInTheDocument();
    expect(api.requestsTo('GET /api/admin/subscribers').at(-1)!.url).toContain('limit=50');
  });

  it('shows the empty state with Export CSV disabled', async () => {
    api.on('GET /api/admin/subscribers', reply(200, data(1, 0, 0)));
    renderApp([login, guarded('/s', <AdminSubscribersPage />)], ['/s']);
    expect(await screen.findByText(messages.admin.noSubscribers)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Export CSV/ })).toBeDisabled();
  });
});

describe('SMS testing page', () => {
  const health = {
    overall_status: 'healthy',
    checks_passed: 3,
    checks_failed: 0,
    checks: [],
    stats: { messages24h: 42, successRate: 97.5, avgProcessingMs: 840, recentErrors: [] },
  };

  it('keeps Test disabled without a phone and reports a comprehensive test', async () => {
    api.on('GET /api/admin/sms-health', reply(200, health));
    api.on('GET /api/admin/sms-tests', reply(200, { success: true, tests: [] }));
    api.on(
      'POST /api/admin/sms-test',
      reply(200, {
        success: true,
        summary: { passedSteps: 5, totalSteps: 6, userFound: true, userVerified: true, hasActiveSubscription: true, entryCreated: true },
        steps: [],
        timing: { durationMs: 321 },
      }),
    );
    renderApp([login, guarded('/t', <AdminSmsTestingPage />)], ['/t']);
    expect(await screen.findByText('840 ms')).toBeInTheDocument();
    expect(screen.getByText('42')).toBeInTheDocument();
    const shortTest = screen.getByRole('button', { name: 'Test short message' });
    expect(shortTest).toBeDisabled();
    expect(screen.getByText('15,000 chars')).toBeInTheDocument();

    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Test Phone Number'), '+12025550123');
    expect(shortTest).toBeEnabled();
    await user.click(shortTest);
    expect(await screen.findByText(messages.admin.testCompleteTitle)).toBeInTheDocument();
    expect(screen.getByText('5/6 steps passed, entry would be created (dry run)')).toBeInTheDocument();
    expect(api.requestsTo('POST /api/admin/sms-test')[0]!.body).toEqual({ testType: 'short', phoneNumber: '+12025550123', messageContent: smsTestMessage('short') });
  });

  it('asks for a phone when it is blank', async () => {
    api.on('GET /api/admin/sms-health', reply(200, health));
    api.on('GET /api/admin/sms-tests', reply(200, { success: true, tests: [] }));
    renderApp([login, guarded('/t', <AdminSmsTestingPage />)], ['/t']);
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('Test Phone Number'), '   ');
    await user.click(screen.getByRole('button', { name: 'Test short message' }));
    expect(await screen.findByText(messages.admin.phoneRequiredTitle)).toBeInTheDocument();
    expect(api.requestsTo('POST /api/admin/sms-test')).toHaveLength(0);
  });

  it('renders results with steps, indicators and timing, or the empty state', async () => {
    api.on('GET /api/admin/sms-health', reply(200, health));
    api.once('GET /api/admin/sms-tests', reply(200, {
      success: true,
      tests: [
        {
          id: 't1',
          test_type: 'long',
          phone_number: '+12025550123',
          message_content: 'x'.repeat(150),
          success: false,
          webhook_status: '200',
          webhook_response: JSON.stringify({
            summary: { passedSteps: 3, totalSteps: 6, userFound: true, userVerified: true, hasActiveSubscription: false, entryCreated: false },
            steps: [{ name: 'Message processing', success: false, message: 'Refused: 4,049 characters, over the 1,600-character limit of one text', durationMs: 2.5 }],
            timing: { durationMs: 1234 },
          }),
          created_at: '2026-03-01T10:00:00.000Z',
        },
      ],
    }));
    renderApp([login, guarded('/t', <AdminSmsTestingPage />)], ['/t']);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('tab', { name: 'Test Results' }));
    const list = await screen.findByRole('list', { name: 'Test results' });
    expect(within(list).getByText('3/6 steps')).toBeInTheDocument();
    expect(within(list).getByText('Failed')).toBeInTheDocument();
    expect(within(list).getByText('1,234 ms')).toBeInTheDocument();
    expect(within(list).getByText(previewText('x'.repeat(150), RESULT_PREVIEW_LENGTH))).toBeInTheDocument();
    for (const label of ['User Found', 'Phone Verified', 'Active Sub', 'Entry Created']) expect(within(list).getByText(label)).toBeInTheDocument();
    // Each step, with its time and what it found.
    expect(within(list).getByText('Message processing')).toBeInTheDocument();
    expect(within(list).getByText('2.5 ms')).toBeInTheDocument();
    expect(within(list).getByText('Refused: 4,049 characters, over the 1,600-character limit of one text')).toBeInTheDocument();
  });

  it('shows the empty results text', async () => {
    api.on('GET /api/admin/sms-health', reply(200, health));
    api.on('GET /api/admin/sms-tests', reply(200, { success: true, tests: [] }));
    renderApp([login, guarded('/t', <AdminSmsTestingPage />)], ['/t']);
    await userEvent.setup({ delay: null }).click(await screen.findByRole('tab', { name: 'Test Results' }));
    expect(await screen.findByText(messages.admin.noTestResults)).toBeInTheDocument();
  });
});

describe('user management', () => {
  const found = {
    success: true,
    user: {
      id: '3f2c8f1e-1111-4222-8333-444455556666',
      email: 'gone@example.com',
      phone_last_four: '0123',
      created_at: '2026-01-01T00:00:00.000Z',
      phone_verified: true,
      is_admin: false,
      counts: { journalEntries: 14, journalPhotos: 3, smsMessages: 9 },
      subscription: null,
    },
  };

  it('deletes only after DELETE is typed exactly, then shows the summary', async () => {
    api.on('GET /api/admin/users', reply(200, found));
    api.on(
      `DELETE /api/admin/users/${found.user.id}`,
      reply(200, { success: true, summary: { userEmail: 'gone@example.com', deletedRecords: { journalEntries: 14, journalPhotos: 3, smsMessages: 9 }, filesDeleted: ['a.jpg'] } }),
    );
    renderApp([login, guarded('/u', <AdminUserManagementPage />)], ['/u']);
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('User ID, email or phone number'), 'gone@example.com');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('14 journal entries')).toBeInTheDocument();
    expect(api.requestsTo('GET /api/admin/users')[0]!.url).toContain('q=gone%40example.com');

    await user.click(screen.getByRole('button', { name: 'Delete User' }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete permanently' });
    const input = within(dialog).getByLabelText('Type DELETE to confirm');
    expect(confirm).toBeDisabled();
    await user.type(input, 'delete');
    expect(confirm).toBeDisabled();
    await user.clear(input);
    await user.type(input, 'DELETE ');
    expect(confirm).toBeDisabled();
    await user.clear(input);
    await user.type(input, 'DELETE');
    expect(confirm).toBeEnabled();
    await user.click(confirm);

    expect(await screen.findByText(messages.admin.userDeleted)).toBeInTheDocument();
    expect(screen.getByText('Last Deletion Summary')).toBeInTheDocument();
    expect(screen.getByText('1 file deleted from storage')).toBeInTheDocument();
    expect(api.requestsTo(`DELETE /api/admin/users/${found.user.id}`)[0]!.body).toEqual({ confirmationText: 'DELETE' });
  });

  it('says when no user matches, and ignores a blank search', async () => {
    api.on('GET /api/admin/users', apiError(404, 'NOT_FOUND', 'Not found'));
    renderApp([login, guarded('/u', <AdminUserManagementPage />)], ['/u']);
    const user = userEvent.setup({ delay: null });
    const search = await screen.findByRole('button', { name: 'Search' });
    expect(search).toBeDisabled();
    await user.type(screen.getByLabelText('User ID, email or phone number'), 'nobody');
    await user.click(search);
    expect(await screen.findByText(messages.admin.userNotFoundTitle)).toBeInTheDocument();
    expect(screen.getByText(messages.admin.userNotFound)).toBeInTheDocument();
  });

  it('counts one of a kind in the singular', async () => {
    api.on('GET /api/admin/users', reply(200, { ...found, user: { ...found.user, counts: { journalEntries: 1, journalPhotos: 1, smsMessages: 1 } } }));
    renderApp([login, guarded('/u', <AdminUserManagementPage />)], ['/u']);
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('User ID, email or phone number'), 'gone@example.com');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('1 journal entry')).toBeInTheDocument();
    expect(screen.getByText('1 photo and their files')).toBeInTheDocument();
    expect(screen.getByText('1 SMS message')).toBeInTheDocument();
  });

  it('takes the last search’s "User not found" away once a user is found', async () => {
    api.on('GET /api/admin/users', apiError(404, 'NOT_FOUND', 'Not found'));
    renderApp([login, guarded('/u', <AdminUserManagementPage />)], ['/u']);
    const user = userEvent.setup({ delay: null });
    const field = await screen.findByLabelText('User ID, email or phone number');
    await user.type(field, 'gone@exampel.com');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(messages.admin.userNotFoundTitle)).toBeInTheDocument();

    api.on('GET /api/admin/users', reply(200, found));
    await user.clear(field);
    await user.type(field, 'gone@example.com');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('14 journal entries')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(messages.admin.userNotFoundTitle)).not.toBeInTheDocument());
  });
});
