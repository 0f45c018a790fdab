/** A text to send. `from` defaults to the journal number. */
export interface OutboundSms {
  to: string;
  body: string;
  /** Where the provider reports delivery status (queued … delivered, failed). */
  statusCallbackUrl?: string;
}

export interface SmsSendResult {
  providerMessageId: string;
  status: string;
}

export interface SmsProvider {
  readonly name: 'twilio' | 'simulator';
  send(message: OutboundSms): Promise<SmsSendResult>;
}

/** A send the provider refused. `code` is the provider's error code (Twilio 21610: recipient opted out). */
export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    /** A permanent failure is not retried. */
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'SmsSendError';
  }
}

/** Twilio: "Attempt to send to unsubscribed recipient". */
export const TWILIO_OPTED_OUT = '21610';
