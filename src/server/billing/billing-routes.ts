import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../shared/messages';
import type { SubscriptionResponse } from '../../shared/profile';
import { currentUser, requireUser } from '../auth/authenticate';
import { AppError } from '../errors';
import { BillingProviderError } from '../providers/billing/types';
import { getAccessStatus } from './access';
import { completeCheckout, openPortal, startCheckout } from './service';

const checkoutBody = z.object({
  plan: z.enum(['monthly', 'yearly'], { error: messages.billing.invalidPlan }),
});

const completeBody = z.object({
  session_id: z.string({ error: messages.billing.sessionRequired }).trim().min(1, messages.billing.sessionRequired).max(500),
});

/** The message a failed provider call answers with; the web maps it to the spec's words. */
function checkoutFailureMessage(error: BillingProviderError): string {
  if (error.kind === 'pricing') return messages.billing.providerPricing;
  if (error.kind === 'account') return messages.billing.providerAccount;
  return messages.billing.providerFailed;
}

const badGateway = (message: string) => new AppError('BILLING_PROVIDER_ERROR', message);

/**
 * Billing under /api/billing (signed in; no access needed, so an expired user can pay):
 * POST /checkout {plan} → {url, sessionId} · POST /checkout/complete {session_id} → subscription ·
 * POST /portal → {url}.
 */
export async function billingRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);

  app.post('/checkout', { schema: { body: checkoutBody } }, async (request) => {
    const { plan } = request.body;
    const user = currentUser(request);
    try {
      return await startCheckout(app.ctx, user, plan);
    } catch (error) {
      if (!(error instanceof BillingProviderError)) throw error;
      request.log.warn({ err: error }, 'checkout session failed');
      throw badGateway(checkoutFailureMessage(error));
    }
  });

  app.post('/checkout/complete', { schema: { body: completeBody } }, async (request): Promise<SubscriptionResponse> => {
    const { session_id } = request.body;
    const user = currentUser(request);
    try {
      await completeCheckout(app.ctx, user.id, session_id);
    } catch (error) {
      if (!(error instanceof BillingProviderError)) throw error;
      request.log.warn({ err: error }, 'checkout return sync failed');
      throw badGateway(messages.billing.providerFailed);
    }
    const { hasAccess: _hasAccess, ...status } = await getAccessStatus(app.ctx, user.id);
    return status;
  });

  app.post('/portal', async (request) => {
    const user = currentUser(request);
    try {
      return await openPortal(app.ctx, user.id);
    } catch (error) {
      if (!(error instanceof BillingProviderError)) throw error;
      request.log.warn({ err: error }, 'billing portal failed');
      throw badGateway(messages.billing.portalProviderFailed);
    }
  });
}
