import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../shared/messages';
import { PLANS } from '../../shared/plans';
import { syncSubscription } from '../billing/sync';
import { conflict, notFound } from '../errors';
import { LOCAL_PRICES, type LocalBilling } from '../providers/billing/local';
import type { ProviderSubscription } from '../providers/billing/types';

const copy = messages.billingManagement;

const planBody = z.object({ plan: z.enum(['monthly', 'yearly'], { error: messages.billing.invalidPlan }) });
const portalParams = z.object({ id: z.string() });

interface DevPortalSubscription {
  plan: 'monthly' | 'yearly';
  name: string;
  priceCents: number;
  interval: 'month' | 'year';
  status: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
}

function presentSubscription(s: ProviderSubscription): DevPortalSubscription {
  const plan = s.priceId === LOCAL_PRICES.yearly || s.interval === 'year' ? 'yearly' : 'monthly';
  return {
    plan,
    name: PLANS[plan].name,
    priceCents: PLANS[plan].priceCents,
    interval: PLANS[plan].interval,
    status: s.status,
    currentPeriodEnd: s.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  };
}

/**
 * The dev billing portal (local simulator only), beside the dev checkout under /api/dev/billing.
 * The portal session id in the address is the capability, as on the provider's portal. Every
 * change is followed by the same syncSubscription the provider's webhook would trigger.
 * GET /portal/:id → {returnUrl, subscription} · POST /portal/:id/plan {plan} · POST /portal/:id/cancel
 * · POST /portal/:id/renew (undo a cancellation); each change answers like GET.
 */
export function registerDevPortalRoutes(app: FastifyInstance, billing: LocalBilling): void {
  const portal = (id: string) => {
    const session = billing.portalSession(id);
    if (!session) throw notFound(copy.portalLinkInvalid);
    return session;
  };
  const view = (id: string) => {
    const session = portal(id);
    const subscription = billing.portalSubscription(session.customerId);
    return { returnUrl: session.returnUrl, subscription: subscription ? presentSubscription(subscription) : null };
  };
  /** The subscription a change applies to: one that has not ended. */
  const changeable = (id: string) => {
    const session = portal(id);
    const subscription = billing.portalSubscription(session.customerId);
    if (!subscription || subscription.status === 'canceled' || subscription.status === 'incomplete_expired') throw conflict(copy.portalNoSubscription);
    return { session, subscription };
  };

  app.get<{ Params: { id: string } }>('/portal/:id', async (request) => view(request.params.id));

  app.withTypeProvider<ZodTypeProvider>().post('/portal/:id/plan', { schema: { params: portalParams, body: planBody } }, async (request) => {
    const { plan } = request.body;
    const { session, subscription } = changeable(request.params.id);
    billing.switchPlan(subscription.id, plan);
    await syncSubscription(app.ctx, session.customerId);
    return view(request.params.id);
  });

  app.post<{ Params: { id: string } }>('/portal/:id/cancel', async (request) => {
    const { session, subscription } = changeable(request.params.id);
    billing.updateSubscription(subscription.id, { cancelAtPeriodEnd: true });
    await syncSubscription(app.ctx, session.customerId);
    return view(request.params.id);
  });

  app.post<{ Params: { id: string } }>('/portal/:id/renew', async (request) => {
    const { session, subscription } = changeable(request.params.id);
    billing.updateSubscription(subscription.id, { cancelAtPeriodEnd: false });
    await syncSubscription(app.ctx, session.customerId);
    return view(request.params.id);
  });
}
