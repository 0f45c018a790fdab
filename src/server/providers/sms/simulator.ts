import { randomBytes } from 'node:crypto';
import type { OutboundSms, SmsProvider } from './types';
import type { Clock } from '../../clock';

interface SimulatedText {
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
  /** Every text a simulated phone sent to the journal number, newest last. */
  readonly received: SimulatedText[];
  sentTo(phone: string): SimulatedText[];
  /** Notes a text a simulated phone sent, so the dev phone can show both sides. */
  receive(text: SimulatedText): void;
  /** Both sides of one phone's conversation with the journal number, oldest first. */
  conversation(phone: string): Array<SimulatedText & { direction: 'sent' | 'received' }>;
}

// Development only, but a long-running dev server should not grow without bound.
const KEEP = 2_000;

function remember(list: SimulatedText[], text: SimulatedText): void {
  list.push(text);
  if (list.length > KEEP) list.splice(0, list.length - KEEP);
}

/** Stands in for Twilio in development: texts land in memory, where the dev phone shows them. */
export function createSmsSimulator(from: string, clock: Clock): SmsSimulator {
  const sent: SimulatedText[] = [];
  const received: SimulatedText[] = [];
  const sentTo = (phone: string) => sent.filter((t) => t.to === phone);
  return {
    name: 'simulator',
    sent,
    received,
    sentTo,
    receive: (text) => remember(received, text),
    conversation(phone) {
      // "sent" and "received" are from the phone's side: what it sent, what it got.
      const mine = received.filter((t) => t.from === phone).map((t) => ({ ...t, direction: 'sent' as const }));
      const theirs = sentTo(phone).map((t) => ({ ...t, direction: 'received' as const }));
      return [...mine, ...theirs].sort((a, b) => a.at.localeCompare(b.at));
    },
    async send(message: OutboundSms) {
      const id = 'SM' + randomBytes(16).toString('hex');
      remember(sent, { id, to: message.to, from, body: message.body, at: clock.now().toISOString() });
      return { providerMessageId: id, status: 'delivered' };
    },
    async findSent({ to, body, since }) {
      return sentTo(to)
        .filter((t) => t.body === body && Date.parse(t.at) >= since.getTime())
        .map((t) => ({ providerMessageId: t.id, status: 'delivered', createdAt: new Date(t.at) }));
    },
    // Redaction is Twilio's (TWILIO_REDACT); the dev phone keeps its conversation.
    async redact() {},
  };
}
