import { WebhookEventError, WebhookSignatureError } from './types';

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
