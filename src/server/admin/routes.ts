import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import { sessionHasMfa } from '../auth/mfa/session-records';
import { forbidden, invalidInput, mfaRequired } from '../errors';
import { securityMessages } from '../../shared/second-factor';
import { toCsv, utcDay } from './common';
import { smsHealth } from './health';
import { listSubscribers, listTrialUsers } from './lists';
import { MetricsCache } from './metrics';
import { latestSmsTests, runSmsTest } from './sms-test';
import { deleteUser, lookUpUser } from './users';

const userParams = z.object({ id: z.string().min(1).max(100) });

/**
 * Admins only: a valid session (401 otherwise) for a user with the admin flag (403 otherwise),
 * signed in with a passkey or a second factor (403 MFA_REQUIRED otherwise).
 */
async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireUser(request, reply);
  const user = currentUser(request);
  if (!user.isAdmin) throw forbidden(adminMessages.accessDenied);
  if (!(await sessionHasMfa(request.server.ctx.db, user.id, user.sessionFamily))) throw mfaRequired(securityMessages.mfaRequired);
}

function sendCsv(reply: FastifyReply, name: string, csv: string, today: string) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${today}.csv"`)
    .header('cache-control', 'no-store')
    .send(csv);
}

/** /api/admin: dashboard metrics, subscriber and trial lists, SMS tests and health, user management. */
export async function adminRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
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

  app.get('/metrics', { schema: { querystring: metricsQuerySchema } }, async (request): Promise<MetricsResponse> => {
    const { period } = request.query;
    return { success: true, metrics: await metricsCache.get(period) };
  });

  app.post('/refresh-cache', async () => {
    metricsCache.clear();
    return { success: true };
  });

  app.get('/subscribers', { schema: { querystring: subscribersQuerySchema } }, async (request, reply) => {
    const query = request.query;
    const csv = query.format === 'csv';
    const data = await listSubscribers(ctx, { ...query, all: csv });
    if (csv) {
      const rows = data.subscribers.map((r) => [r.id, r.phone_last_four, r.signup_date, r.subscription_date]);
      return sendCsv(reply, 'subscribers', toCsv(['id', 'phone_last_four', 'signup_date', 'subscription_date'], rows), utcDay(ctx.clock.now()));
    }
    const body: SubscribersResponse = { success: true, data };
    return body;
  });

  app.get('/trial-users', { schema: { querystring: trialUsersQuerySchema } }, async (request, reply) => {
    const query = request.query;
    const csv = query.format === 'csv';
    const data = await listTrialUsers(ctx, { ...query, all: csv });
    if (csv) {
      const rows = data.trialUsers.map((r) => [r.id, r.phone_last_four, r.signup_date, r.trial_end]);
      return sendCsv(reply, 'trial-users', toCsv(['id', 'phone_last_four', 'signup_date', 'trial_end'], rows), utcDay(ctx.clock.now()));
    }
    const body: TrialUsersResponse = { success: true, data };
    return body;
  });

  app.post('/sms-test', { schema: { body: smsTestBodySchema } }, async (request): Promise<SmsTestResponse> => {
    const input = request.body;
    const phone = normalizeUsPhone(input.phoneNumber);
    if (!phone) throw invalidInput(adminMessages.invalidPhone);
    return runSmsTest(ctx, { testType: input.testType, phone, content: input.messageContent }, currentUser(request).id);
  });

  app.get('/sms-tests', async (): Promise<SmsTestsResponse> => ({ success: true, tests: await latestSmsTests(ctx) }));

  app.get('/sms-health', async (): Promise<SmsHealthResponse> => smsHealth(ctx));

  app.get('/users', { schema: { querystring: userSearchQuerySchema } }, async (request): Promise<AdminUserResponse> => {
    const { q } = request.query;
    return { success: true, user: await lookUpUser(ctx, q) };
  });

  app.delete('/users/:id', { schema: { params: userParams, body: deleteUserBodySchema } }, async (request): Promise<DeleteUserResponse> => {
    const admin = currentUser(request);
    const summary = await deleteUser(ctx, admin, request.params.id, request.ip);
    metricsCache.clear();
    return { success: true, summary };
  });
}
