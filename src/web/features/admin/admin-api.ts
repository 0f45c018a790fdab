import { apiRequest } from '../../api/client';
import { ApiError } from '../../api/errors';
import * as authApi from '../../api/auth';
import { sessionStore } from '../../api/session-store';
import { authorizedFetch } from '../journal/http';
import type {
  AdminMeResponse,
  DeletionSummary,
  ManagedUser,
  MetricsPeriod,
  MetricsResponse,
  SmsHealth,
  SmsTestLog,
  SmsTestResponse,
  SubscribersData,
  TrialStatus,
  TrialUsersData,
} from './types';

/** The admin endpoints of DESIGN section 6, typed. */

/** Page size of the subscriber and trial lists (spec 9). */
export const ADMIN_PAGE_SIZE = 50;

export function fetchAdminMe(): Promise<AdminMeResponse> {
  return apiRequest<AdminMeResponse>('GET', '/api/admin/me');
}

export function fetchMetrics(period: MetricsPeriod): Promise<MetricsResponse> {
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

export async function fetchSubscribers(query: SubscribersQuery): Promise<SubscribersData> {
  const answer = await apiRequest<{ success: boolean; data: SubscribersData }>('GET', subscribersPath(query));
  return answer.data;
}

export async function fetchTrialUsers(query: TrialUsersQuery): Promise<TrialUsersData> {
  const answer = await apiRequest<{ success: boolean; data: TrialUsersData }>('GET', trialUsersPath(query));
  return answer.data;
}

export function runSmsTest(input: { testType: string; phoneNumber: string; messageContent: string }): Promise<SmsTestResponse> {
  return apiRequest<SmsTestResponse>('POST', '/api/admin/sms-test', { body: input });
}

export async function fetchSmsTests(): Promise<SmsTestLog[]> {
  const answer = await apiRequest<{ success: boolean; tests: SmsTestLog[] }>('GET', '/api/admin/sms-tests');
  return answer.tests ?? [];
}

export function fetchSmsHealth(): Promise<SmsHealth> {
  return apiRequest<SmsHealth>('GET', '/api/admin/sms-health');
}

export async function findUser(q: string): Promise<ManagedUser> {
  const answer = await apiRequest<{ success: boolean; user: ManagedUser }>('GET', `/api/admin/users?q=${encodeURIComponent(q)}`);
  if (!answer?.user) throw new ApiError(404, 'NOT_FOUND', 'Not found');
  return answer.user;
}

export async function deleteUser(id: string): Promise<DeletionSummary> {
  const answer = await apiRequest<{ success: boolean; summary?: DeletionSummary; error?: string }>('DELETE', `/api/admin/users/${encodeURIComponent(id)}`, {
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
export async function downloadCsv(path: string, name: string, now = new Date()): Promise<string> {
  const response = await authorizedFetch(path, { headers: { Accept: 'text/csv' } });
  const blob = await response.blob();
  const fileName = `${name}-${localIsoDate(now)}.csv`;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}

function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
