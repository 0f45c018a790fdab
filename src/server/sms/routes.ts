import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { applyDeliveryStatus } from './delivery-status';
import { receiveInboundText } from './inbound';
import { deliveryStatusSchema, inboundSmsSchema, toInboundText } from './schemas';
import { assertSignedByTwilio } from './twilio-signature';

/** Twilio reads this as "no reply": every reply goes through the outbound queue instead. */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/** Twilio's webhooks, at /webhooks/twilio. Every request here must carry a valid signature. */
export async function smsWebhookRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  // Before the fields are checked: the signature covers them as Twilio sent them.
  app.addHook('preValidation', async (request) => assertSignedByTwilio(app.ctx.config, request));

  // Twilio waits 15 s and may deliver twice: record, answer, and let the inbound job process it.
  app.post('/sms', { schema: { body: inboundSmsSchema } }, async (request, reply) => {
    await receiveInboundText(app.ctx, toInboundText(request.body));
    return reply.type('text/xml').send(EMPTY_TWIML);
  });

  app.post('/status', { schema: { body: deliveryStatusSchema } }, async (request, reply) => {
    const { MessageSid, MessageStatus, ErrorCode } = request.body;
    // An id we do not know (another environment's text, or a race with our own update) is still a 200.
    await applyDeliveryStatus(app.ctx, { messageSid: MessageSid, status: MessageStatus, errorCode: ErrorCode });
    return reply.type('text/xml').send(EMPTY_TWIML);
  });
}
