import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { notFound } from '../errors';
import { isLoopbackRequest } from '../security/loopback';
import { devCallRoutes } from './call-routes';
import { devCheckoutRoutes } from './checkout-routes';
import { devMailRoutes } from './mail-routes';
import { devPhoneRoutes } from './phone-routes';

/** Which simulator each page and API stands in for; none of them exists in production. */
function simulatorsOn(ctx: AppContext) {
  const development = !ctx.config.isProduction;
  return {
    phone: development && !!ctx.simulators.sms,
    mail: development && !!ctx.simulators.mail,
    billing: development && ctx.billing.kind === 'local',
  };
}

/**
 * Whether a simulator page (/dev/…) is served to this request. The mailbox holds every mail the app
 * sent, password resets and sign-in links among them: it shows only to this machine.
 */
export function devPageOpen(ctx: AppContext, path: string, request: FastifyRequest): boolean {
  const on = simulatorsOn(ctx);
  if (path === '/dev/phone') return on.phone;
  if (path === '/dev/mail') return on.mail && isLoopbackRequest(request);
  if (path === '/dev/checkout' || path === '/dev/billing-portal') return on.billing;
  return false;
}

/** The simulators' APIs under /api/dev, each only while its simulator is on, in development. */
export async function devRoutes(app: FastifyInstance): Promise<void> {
  const on = simulatorsOn(app.ctx);
  if (on.phone) {
    await app.register(devPhoneRoutes, { prefix: '/api/dev/phone' });
    await app.register(devCallRoutes, { prefix: '/api/dev/phone' });
  }
  if (on.mail) {
    await app.register(
      async (mail) => {
        // Answered as if it were not there: nothing tells another machine the mailbox exists.
        mail.addHook('onRequest', async (request) => {
          if (!isLoopbackRequest(request)) throw notFound();
        });
        await mail.register(devMailRoutes);
      },
      { prefix: '/api/dev/mail' },
    );
  }
  if (on.billing) await app.register(devCheckoutRoutes, { prefix: '/api/dev/billing' });
}
