import { randomUUID } from 'node:crypto';
import type { MailMessage, Mailer } from './types';

interface SimulatedMail extends MailMessage {
  id: string;
  from: string;
  at: string;
}

export interface MailSimulator extends Mailer {
  readonly name: 'simulator';
  /** Every message "sent", newest last; kept in memory only (development). */
  readonly outbox: SimulatedMail[];
}

/** Stands in for SMTP in development: mail lands in memory, where the dev mailbox shows it. */
export function createMailSimulator(from: string): MailSimulator {
  const outbox: SimulatedMail[] = [];
  return {
    name: 'simulator',
    outbox,
    async send(message) {
      outbox.push({ ...message, id: randomUUID(), from, at: new Date().toISOString() });
    },
  };
}
