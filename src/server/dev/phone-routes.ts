import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../shared/messages';
import { normalizeUsPhone } from '../../shared/phone';
import { receiveInboundText } from '../sms/inbound';

/** Longest text Twilio accepts (10 segments' worth). */
const MAX_TEXT_LENGTH = 1600;

export const usPhone = z
  .string({ error: messages.devPhone.phoneRequired })
  .trim()
  .min(1, messages.devPhone.phoneRequired)
  .transform((value, ctx) => {
    const phone = normalizeUsPhone(value);
    if (!phone) {
      ctx.addIssue({ code: 'custom', message: messages.signUp.invalidPhone });
      return z.NEVER;
    }
    return phone;
  });

const conversationQuery = z.object({
  /** The simulated phone, any common US format. */
  phone: usPhone,
});

const sendBody = z.object({
  /** The simulated phone that texts the journal number. */
  from: usPhone,
  /** What it texts. */
  body: z
    .string({ error: messages.devPhone.bodyRequired })
    .refine((v) => v.trim().length > 0, messages.devPhone.bodyRequired)
    .refine((v) => v.length <= MAX_TEXT_LENGTH, messages.devPhone.bodyTooLong),
});

/**
 * The dev phone (simulator only): a browser stands in for a handset. What it sends goes through
 * the same record-and-process pipeline as Twilio's webhook.
 */
export async function devPhoneRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const simulator = app.ctx.simulators.sms!;

  app.get('/messages', { schema: { querystring: conversationQuery } }, async (request) => {
    const { phone } = request.query;
    return {
      phone,
      journalNumber: app.ctx.config.journalNumber,
      messages: simulator.conversation(phone).map((t) => ({ id: t.id, direction: t.direction, body: t.body, at: t.at })),
    };
  });

  app.post('/send', { schema: { body: sendBody } }, async (request) => {
    const { from, body } = request.body;
    const messageSid = 'SM' + randomBytes(16).toString('hex');
    await receiveInboundText(app.ctx, { messageSid, from, to: app.ctx.config.journalNumber, body, media: [] });
    return { messageSid };
  });
}
