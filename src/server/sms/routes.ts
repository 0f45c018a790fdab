import type { FastifyInstance } from 'fastify';
import { parseInput } from '../http/validate';
import { applyDeliveryStatus } from './delivery-status';
import { receiveInboundText } from './inbound';
import { deliveryStatusSchema, inboundSmsSchema, toInboundText } from './schemas';
import { assertSignedByTwilio } from './twilio-signature';

/** Twilio reads this as "no reply": every reply goes through the outbound queue instead. */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/** Twilio's webhooks, at /webhooks/twilio. Every request here must carry a valid signature. */
export async function smsWebhookRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('preHandler', async (request) => assertSignedByTwilio(app.ctx.config, request));

  // Twilio waits 15 s and may deliver twice: record, answer, and let the inbound job process it.
  app.post('/sms', async (request, reply) => {
    const fields = parseInput(inboundSmsSchema, request.body);
    await receiveInboundText(app.ctx, toInboundText(fields));
    return reply.type('text/xml').send(EMPTY_TWIML);
  });

  app.post('/status', async (request, reply) => {
    const fields = parseInput(deliveryStatusSchema, request.body);
    // An id we do not know (another environment's text, or a race with our own update) is still a 200.
    await applyDeliveryStatus(app.ctx, { messageSid: fields.MessageSid, status: fields.MessageStatus, errorCode: fields.ErrorCode });
    return reply.type('text/xml').send(EMPTY_TWIML);
  });
}
