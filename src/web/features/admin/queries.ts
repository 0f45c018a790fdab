import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as adminApi from './admin-api';
import type { AdminPeriod } from '../../../shared/admin';

/** Every admin query key, in one place. */
export const adminKeys = {
  all: ['admin'] as const,
  me: (userId: string | undefined) => ['admin', 'me', userId ?? null] as const,
  metrics: () => ['admin', 'metrics'] as const,
  metricsFor: (period: AdminPeriod) => ['admin', 'metrics', period] as const,
  subscribers: () => ['admin', 'subscribers'] as const,
  subscribersPage: (query: adminApi.SubscribersQuery) => ['admin', 'subscribers', query] as const,
  trialUsers: () => ['admin', 'trial-users'] as const,
  trialUsersPage: (query: adminApi.TrialUsersQuery) => ['admin', 'trial-users', query] as const,
  smsTests: () => ['admin', 'sms-tests'] as const,
  smsHealth: () => ['admin', 'sms-health'] as const,
};

/** The admin check (GET /api/admin/me) for the signed-in user; off without a user. */
export function useAdminMe(userId: string | undefined) {
  return useQuery({
    queryKey: adminKeys.me(userId),
    queryFn: adminApi.fetchAdminMe,
    enabled: !!userId,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

export function useMetrics(period: AdminPeriod) {
  return useQuery({
    queryKey: adminKeys.metricsFor(period),
    queryFn: () => adminApi.fetchMetrics(period),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useRefreshMetrics() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminApi.refreshMetricsCache,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.metrics() }),
  });
}

export function useSubscribers(query: adminApi.SubscribersQuery) {
  return useQuery({
    queryKey: adminKeys.subscribersPage(query),
    queryFn: () => adminApi.fetchSubscribers(query),
    placeholderData: keepPreviousData,
  });
}

export function useTrialUsers(query: adminApi.TrialUsersQuery) {
  return useQuery({
    queryKey: adminKeys.trialUsersPage(query),
    queryFn: () => adminApi.fetchTrialUsers(query),
    placeholderData: keepPreviousData,
  });
}

export function useSmsTests() {
  return useQuery({ queryKey: adminKeys.smsTests(), queryFn: adminApi.fetchSmsTests });
}

export function useSmsHealth() {
  return useQuery({ queryKey: adminKeys.smsHealth(), queryFn: adminApi.fetchSmsHealth, retry: false });
}

export function useRunSmsTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminApi.runSmsTest,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.smsTests() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.smsHealth() });
    },
  });
}

export function useFindUser() {
  return useMutation({ mutationFn: adminApi.findUser });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminApi.deleteUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.metrics() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.subscribers() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.trialUsers() });
    },
  });
}
