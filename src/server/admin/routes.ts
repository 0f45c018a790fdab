import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  adminMessages,
  deleteUserBodySchema,
  metricsQuerySchema,
  smsTestBodySchema,
  subscribersQuerySchema,
  trialUsersQuerySchema,
  userSearchQuerySchema,
  type AdminMeResponse,
  type AdminUserResponse,
  type DeleteUserResponse,
  type MetricsResponse,
  type SmsHealthResponse,
  type SmsTestResponse,
  type SmsTestsResponse,
  type SubscribersResponse,
  type TrialUsersResponse,
} from '../../shared/admin';
import { normalizeUsPhone } from '../../shared/phone';
import { currentUser, requireUser } from '../auth/authenticate';
import { forbidden, invalidInput } from '../errors';
import { parseInput } from '../http/validate';
import { toCsv, utcDay } from './common';
import { smsHealth } from './health';
import { listSubscribers, listTrialUsers } from './lists';
import { MetricsCache } from './metrics';
import { latestSmsTests, runSmsTest } from './sms-test';
import { deleteUser, lookUpUser } from './users';

/** Admins only: a valid session (401 otherwise) for a user with the admin flag (403 otherwise). */
async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireUser(request, reply);
  if (!currentUser(request).isAdmin) throw forbidden(adminMessages.accessDenied);
}

function sendCsv(reply: FastifyReply, name: string, csv: string, today: string) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${today}.csv"`)
    .header('cache-control', 'no-store')
    .send(csv);
}

/** /api/admin: dashboard metrics, subscriber and trial lists, SMS tests and health, user management. */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const ctx = app.ctx;
  const metricsCache = new MetricsCache(ctx);
  app.addHook('onRequest', requireAdmin);
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  app.get('/me', async (request): Promise<AdminMeResponse> => {
    const user = currentUser(request);
    return { success: true, user: { id: user.id, email: user.email } };
  });

  app.get('/metrics', async (request): Promise<MetricsResponse> => {
    const { period } = parseInput(metricsQuerySchema, request.query);
    return { success: true, metrics: await metricsCache.get(period) };
  });

  app.post('/refresh-cache', async () => {
    metricsCache.clear();
    return { success: true };
  });

  app.get('/subscribers', async (request, reply) => {
    const query = parseInput(subscribersQuerySchema, request.query);
    const csv = query.format === 'csv';
    const data = await listSubscribers(ctx, { ...query, all: csv });
    if (csv) {
      const rows = data.subscribers.map((r) => [r.id, r.phone_last_four, r.signup_date, r.subscription_date]);
      return sendCsv(reply, 'subscribers', toCsv(['id', 'phone_last_four', 'signup_date', 'subscription_date'], rows), utcDay(ctx.clock.now()));
    }
    const body: SubscribersResponse = { success: true, data };
    return body;
  });

  app.get('/trial-users', async (request, reply) => {
    const query = parseInput(trialUsersQuerySchema, request.query);
    const csv = query.format === 'csv';
    const data = await listTrialUsers(ctx, { ...query, all: csv });
    if (csv) {
      const rows = data.trialUsers.map((r) => [r.id, r.phone_last_four, r.signup_date, r.trial_end]);
      return sendCsv(reply, 'trial-users', toCsv(['id', 'phone_last_four', 'signup_date', 'trial_end'], rows), utcDay(ctx.clock.now()));
    }
    const body: TrialUsersResponse = { success: true, data };
    return body;
  });

  app.post('/sms-test', async (request): Promise<SmsTestResponse> => {
    const input = parseInput(smsTestBodySchema, request.body);
    const phone = normalizeUsPhone(input.phoneNumber);
    if (!phone) throw invalidInput(adminMessages.invalidPhone);
    return runSmsTest(ctx, { testType: input.testType, phone, content: input.messageContent }, currentUser(request).id);
  });

  app.get('/sms-tests', async (): Promise<SmsTestsResponse> => ({ success: true, tests: await latestSmsTests(ctx) }));

  app.get('/sms-health', async (): Promise<SmsHealthResponse> => smsHealth(ctx));

  app.get('/users', async (request): Promise<AdminUserResponse> => {
    const { q } = parseInput(userSearchQuerySchema, request.query);
    return { success: true, user: await lookUpUser(ctx, q) };
  });

  app.delete<{ Params: { id: string } }>('/users/:id', async (request): Promise<DeleteUserResponse> => {
    parseInput(deleteUserBodySchema, request.body);
    const admin = currentUser(request);
    const summary = await deleteUser(ctx, admin, request.params.id, request.ip);
    metricsCache.clear();
    return { success: true, summary };
  });
}
