import type { FastifyInstance } from 'fastify';
import { PLANS } from '../../shared/plans';
import { syncSubscription } from '../billing/sync';
import { conflict, notFound } from '../errors';
import { isLocalBilling, type LocalBilling, type LocalCheckoutSession } from '../providers/billing/local';
import { registerDevPortalRoutes } from './billing-portal-routes';

const present = (s: LocalCheckoutSession) => ({
  id: s.id,
  plan: s.plan,
  name: PLANS[s.plan].name,
  priceCents: PLANS[s.plan].priceCents,
  interval: PLANS[s.plan].interval,
  status: s.status,
  /** The free trial the subscription keeps: nothing is charged before it ends. */
  trialEnd: s.trialEnd?.toISOString() ?? null,
});

/**
 * The dev checkout (local billing simulator only), under /api/dev/billing. The session id in the
 * address is the capability, as on a hosted checkout page.
 * GET /sessions/:id · POST /sessions/:id/pay → {redirectTo} · POST /sessions/:id/cancel → {redirectTo};
 * the billing portal's routes sit beside them (billing-portal-routes.ts).
 */
export async function devCheckoutRoutes(app: FastifyInstance): Promise<void> {
  const provider = app.ctx.billing;
  if (!isLocalBilling(provider)) return;
  const billing: LocalBilling = provider;

  const openSession = (id: string) => {
    const session = billing.session(id);
    if (!session) throw notFound('Checkout session not found');
    if (session.status !== 'open') throw conflict('This checkout session is no longer open');
    return session;
  };

  app.get<{ Params: { id: string } }>('/sessions/:id', async (request) => {
    const session = billing.session(request.params.id);
    if (!session) throw notFound('Checkout session not found');
    return present(session);
  });

  app.post<{ Params: { id: string } }>('/sessions/:id/pay', async (request) => {
    openSession(request.params.id);
    const { session, redirectTo } = billing.pay(request.params.id);
    // What the provider's webhook would do.
    await syncSubscription(app.ctx, session.customerId);
    return { redirectTo };
  });

  app.post<{ Params: { id: string } }>('/sessions/:id/cancel', async (request) => {
    openSession(request.params.id);
    return { redirectTo: billing.cancel(request.params.id).redirectTo };
  });

  registerDevPortalRoutes(app, billing);
}
