import type { z } from 'zod';
import {
  ADMIN_PAGE_SIZE,
  type AdminMeResponse,
  type AdminPeriod,
  type AdminUserResponse,
  type DeleteUserResponse,
  type DeletionSummary,
  type AdminUserInfo,
  type MetricsResponse,
  type SmsHealthResponse,
  type SmsTestLog,
  type SmsTestRequest,
  type SmsTestResponse,
  type SmsTestsResponse,
  type SubscribersResponse,
  type TrialUsersResponse,
  type trialUsersQuerySchema,
} from '../../../shared/admin';
import { apiRequest } from '../../api/client';
import { downloadFile } from '../../api/download';
import { ApiError } from '../../api/errors';
import * as authApi from '../../api/auth';
import { sessionStore } from '../../api/session-store';

/** The admin endpoints of DESIGN section 6, typed. */

type TrialStatus = z.output<typeof trialUsersQuerySchema>['status'];

export function fetchAdminMe(): Promise<AdminMeResponse> {
  return apiRequest<AdminMeResponse>('GET', '/api/admin/me');
}

export function fetchMetrics(period: AdminPeriod): Promise<MetricsResponse> {
  return apiRequest<MetricsResponse>('GET', `/api/admin/metrics?period=${encodeURIComponent(period)}`);
}

export async function refreshMetricsCache(): Promise<void> {
  await apiRequest('POST', '/api/admin/refresh-cache');
}

export interface SubscribersQuery {
  page: number;
  search: string;
}

export interface TrialUsersQuery extends SubscribersQuery {
  status: TrialStatus;
}

export function subscribersPath({ page, search }: SubscribersQuery, format?: 'csv'): string {
  // The CSV is the whole (searched) list, not one page.
  const params = new URLSearchParams(format ? { format } : { page: String(page), limit: String(ADMIN_PAGE_SIZE) });
  if (search) params.set('search', search);
  return `/api/admin/subscribers?${params.toString()}`;
}

export function trialUsersPath({ page, search, status }: TrialUsersQuery, format?: 'csv'): string {
  const params = new URLSearchParams(format ? { format } : { page: String(page), limit: String(ADMIN_PAGE_SIZE) });
  params.set('status', status);
  if (search) params.set('search', search);
  return `/api/admin/trial-users?${params.toString()}`;
}

export async function fetchSubscribers(query: SubscribersQuery): Promise<SubscribersResponse['data']> {
  const answer = await apiRequest<SubscribersResponse>('GET', subscribersPath(query));
  return answer.data;
}

export async function fetchTrialUsers(query: TrialUsersQuery): Promise<TrialUsersResponse['data']> {
  const answer = await apiRequest<TrialUsersResponse>('GET', trialUsersPath(query));
  return answer.data;
}

export function runSmsTest(input: SmsTestRequest): Promise<SmsTestResponse> {
  return apiRequest<SmsTestResponse>('POST', '/api/admin/sms-test', { body: input });
}

export async function fetchSmsTests(): Promise<SmsTestLog[]> {
  const answer = await apiRequest<SmsTestsResponse>('GET', '/api/admin/sms-tests');
  return answer.tests ?? [];
}

export function fetchSmsHealth(): Promise<SmsHealthResponse> {
  return apiRequest<SmsHealthResponse>('GET', '/api/admin/sms-health');
}

export async function findUser(q: string): Promise<AdminUserInfo> {
  const answer = await apiRequest<AdminUserResponse | undefined>('GET', `/api/admin/users?q=${encodeURIComponent(q)}`);
  if (!answer?.user) throw new ApiError(404, 'NOT_FOUND', 'Not found');
  return answer.user;
}

export async function deleteUser(id: string): Promise<DeletionSummary> {
  const answer = await apiRequest<Partial<DeleteUserResponse> & { error?: string }>('DELETE', `/api/admin/users/${encodeURIComponent(id)}`, {
    body: { confirmationText: 'DELETE' },
  });
  if (!answer?.success || !answer.summary) throw new ApiError(500, 'DELETE_FAILED', answer?.error ?? '');
  return answer.summary;
}

/** Clears this tab's session and tells the server, quietly (the admin pages say their own words). */
export async function adminSignOut(): Promise<void> {
  const current = sessionStore.get();
  sessionStore.clear();
  if (!current) return;
  await authApi.logout('local', current.access_token).catch(() => undefined);
}

/** Downloads a CSV list with the session's token and saves it as `{name}-YYYY-MM-DD.csv`. */
export function downloadCsv(path: string, name: string, now = new Date()): Promise<string> {
  return downloadFile(path, { headers: { Accept: 'text/csv' }, fileName: () => `${name}-${localIsoDate(now)}.csv` });
}

function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
