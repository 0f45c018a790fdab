import type { FastifyInstance } from 'fastify';
import { messages } from '../../shared/messages';
import { AppError } from '../errors';
import { WebhookEventError, WebhookSignatureError } from '../providers/billing/types';
import { handleWebhookEvent } from './service';

/**
 * POST /webhooks/stripe: the signature covers the exact bytes sent, so inside this plugin JSON
 * bodies stay raw strings. 400 when the signature does not hold, or when a signed event's ids are
 * not ids (logged: a retry could not help); 200 for handled, repeated and ignored events; a failure
 * to re-read the subscription answers 500 so the provider retries.
 */
export async function stripeWebhookRoutes(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post('/', async (request) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    const header = request.headers['stripe-signature'];
    let event;
    try {
      event = app.ctx.billing.verifyWebhook(raw, Array.isArray(header) ? header[0] : header);
    } catch (error) {
      if (error instanceof WebhookEventError) {
        request.log.warn({ reason: error.message }, 'billing webhook refused: signed, but not a usable event');
        throw new AppError('INVALID_EVENT', error.message);
      }
      if (!(error instanceof WebhookSignatureError)) throw error;
      request.log.warn({ reason: error.message }, 'billing webhook refused');
      throw new AppError('INVALID_SIGNATURE', messages.billing.invalidSignature);
    }
    const outcome = await handleWebhookEvent(app.ctx, event);
    return { received: true, outcome };
  });
}
