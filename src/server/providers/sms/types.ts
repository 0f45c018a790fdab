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

/** A message the provider holds that may be one of ours whose answer we never heard. */
export interface SentMessage extends SmsSendResult {
  /** When the provider created it. */
  createdAt: Date;
}

export interface SmsProvider {
  readonly name: 'twilio' | 'simulator';
  send(message: OutboundSms): Promise<SmsSendResult>;
  /**
   * The messages the provider created to `to` with this body since `since`, oldest first: asked
   * before a text whose request went unanswered is sent again.
   */
  findSent(message: { to: string; body: string; since: Date }): Promise<SentMessage[]>;
  /** Erases the provider's copy of a message's body and media; a message it no longer has is done. */
  redact(providerMessageId: string): Promise<void>;
}

/** A request the provider refused or never answered. `code` is the provider's error code (Twilio 21610: recipient opted out). */
export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    /** A permanent failure is not retried. */
    readonly permanent: boolean,
    readonly details: {
      /** The request may have reached the provider (it timed out, or the connection dropped after it was sent). */
      unconfirmed?: boolean;
      /** The provider asked us to wait this long (429 Retry-After). */
      retryAfterMs?: number;
    } = {},
  ) {
    super(message);
    this.name = 'SmsSendError';
  }
}

/** Twilio: "Attempt to send to unsubscribed recipient". */
export const TWILIO_OPTED_OUT = '21610';
