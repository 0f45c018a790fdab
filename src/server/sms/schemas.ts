import { z } from 'zod';
import type { SmsMedia } from '../journal/sms-entries';
import type { InboundText } from './inbound';

/** Twilio allows at most 10 media items on one MMS. */
const MAX_MEDIA = 10;

/** Twilio's inbound-message webhook fields (form-encoded); MediaUrlN/MediaContentTypeN read separately. */
export const inboundSmsSchema = z.looseObject({
  /** Twilio's id for the text; unique, so a redelivery is recognised. */
  MessageSid: z.string().trim().min(1, 'MessageSid is required').max(64),
  /** The sender, E.164. */
  From: z.string().trim().min(1, 'From is required').max(32),
  /** The journal number it was sent to. */
  To: z.string().trim().max(32).default(''),
  /** The text; empty for a photo-only MMS. */
  Body: z.string().default(''),
  /** How many MediaUrlN fields follow. */
  NumMedia: z.coerce.number().int().min(0).max(MAX_MEDIA).default(0),
  /** Advanced Opt-Out's classification (STOP, START, HELP) when Twilio already replied. */
  OptOutType: z.string().optional(),
});

/** Twilio's status-callback fields. */
export const deliveryStatusSchema = z.looseObject({
  /** The outbound text's id, as Twilio returned it when we sent it. */
  MessageSid: z.string().trim().min(1, 'MessageSid is required').max(64),
  /** queued, sent, delivered, undelivered, failed… */
  MessageStatus: z.string().trim().min(1, 'MessageStatus is required').max(32),
  /** Twilio's error code when the text failed (21610: the recipient opted out). */
  ErrorCode: z.string().trim().max(16).optional(),
});

/** Turns the parsed webhook fields into the one shape the pipeline records. */
export function toInboundText(fields: z.infer<typeof inboundSmsSchema>): InboundText {
  const media: SmsMedia[] = [];
  for (let i = 0; i < fields.NumMedia; i++) {
    const url = fields[`MediaUrl${i}`];
    if (typeof url !== 'string' || !url) continue;
    const contentType = fields[`MediaContentType${i}`];
    media.push({ url, contentType: typeof contentType === 'string' ? contentType : 'application/octet-stream' });
  }
  return {
    messageSid: fields.MessageSid,
    from: fields.From,
    to: fields.To,
    body: fields.Body,
    media,
    optOutType: fields.OptOutType || undefined,
  };
}
