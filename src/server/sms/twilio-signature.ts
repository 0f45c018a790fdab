import type { FastifyRequest } from 'fastify';
import twilio from 'twilio';
import type { Config } from '../config';
import { forbidden } from '../errors';

/**
 * Refuses a webhook that Twilio did not sign. The signature covers the public URL Twilio called
 * (PUBLIC_URL, which stays right behind a proxy) and every form field. The simulator sends
 * unsigned requests; it exists only in development.
 */
export function assertSignedByTwilio(config: Config, request: FastifyRequest): void {
  if (config.sms.provider !== 'twilio') return;
  const signature = request.headers['x-twilio-signature'];
  const params = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
  const url = `${config.publicUrl}${request.url}`;
  if (typeof signature !== 'string' || !twilio.validateRequest(config.sms.authToken, signature, url, params)) {
    throw forbidden('Invalid Twilio signature');
  }
}
