import { randomBytes } from 'node:crypto';
import type { OutboundSms, SmsProvider } from './types';

export interface SimulatedText {
  id: string;
  to: string;
  from: string;
  body: string;
  at: string;
}

export interface SmsSimulator extends SmsProvider {
  readonly name: 'simulator';
  /** Every text "sent", newest last; kept in memory only (development). */
  readonly sent: SimulatedText[];
  sentTo(phone: string): SimulatedText[];
}

/** Stands in for Twilio in development: texts land in memory, where the dev phone shows them. */
export function createSmsSimulator(from: string): SmsSimulator {
  const sent: SimulatedText[] = [];
  return {
    name: 'simulator',
    sent,
    sentTo: (phone) => sent.filter((t) => t.to === phone),
    async send(message: OutboundSms) {
      const id = 'SM' + randomBytes(16).toString('hex');
      sent.push({ id, to: message.to, from, body: message.body, at: new Date().toISOString() });
      return { providerMessageId: id, status: 'delivered' };
    },
  };
}
