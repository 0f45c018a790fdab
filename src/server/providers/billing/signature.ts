import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookEventError, WebhookSignatureError } from './types';

/** Stripe's default tolerance between the signed timestamp and now. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** `t=…,v1=…` for a payload, as Stripe signs it: HMAC-SHA256(secret, `${t}.${payload}`). */
export function signPayload(payload: string, secret: string, timestampSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestampSeconds}.${payload}`, 'utf8').digest('hex');
  return `t=${timestampSeconds},v1=${v1}`;
}

/**
 * Verifies a `Stripe-Signature` header over the raw body: any v1 signature may match (secrets
 * roll over), compared in constant time, and the timestamp must be within the tolerance.
 */
export function verifySignature(
  rawBody: string,
  header: string | undefined,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): void {
  if (!header) throw new WebhookSignatureError('Missing signature header');
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') timestamp = /^\d+$/.test(value) ? Number(value) : undefined;
    else if (key === 'v1') signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) throw new WebhookSignatureError('Malformed signature header');
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) throw new WebhookSignatureError('Signature timestamp outside the tolerance');
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex'), 'utf8');
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError('No matching signature');
}

/** Stripe's object ids (cus_…, evt_…): letters, digits, underscores and hyphens, at most 255 characters. */
const PROVIDER_ID = /^[A-Za-z0-9_-]{1,255}$/;
const EVENT_TYPE = /^[a-z0-9_.]{1,100}$/;

/**
 * Parses a verified body into an event, refusing anything without an id, a type and data.object
 * (WebhookSignatureError), or whose ids are not ids (WebhookEventError): a customer id of 20,000
 * characters, or one that is not text, could only fail further on, and the provider would retry it
 * for days.
 */
export function parseEvent(rawBody: string): { id: string; type: string; data: { object: Record<string, unknown> } } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    throw new WebhookSignatureError('Body is not JSON');
  }
  const event = parsed as { id?: unknown; type?: unknown; data?: { object?: unknown } } | null;
  if (!event || typeof event.id !== 'string' || typeof event.type !== 'string' || !event.data || typeof event.data.object !== 'object' || event.data.object === null) {
    throw new WebhookSignatureError('Not an event');
  }
  const object = event.data.object as Record<string, unknown>;
  if (!PROVIDER_ID.test(event.id)) throw new WebhookEventError('The event id is not a Stripe id');
  if (!EVENT_TYPE.test(event.type)) throw new WebhookEventError('The event type is not a Stripe event type');
  const customer = object.customer;
  const customerId = customer && typeof customer === 'object' ? (customer as { id?: unknown }).id : customer;
  if (customerId !== undefined && customerId !== null && (typeof customerId !== 'string' || !PROVIDER_ID.test(customerId))) {
    throw new WebhookEventError('The customer is not a Stripe id');
  }
  return { id: event.id, type: event.type, data: { object } };
}
