import type { AppContext } from '../context';
import { AppError } from '../errors';

export interface SmsMedia {
  url: string;
  contentType: string;
}

export interface AppendSmsInput {
  userId: string;
  /** The text as received (may be empty for a photo-only MMS). */
  text: string;
  receivedAt: Date;
  /** Twilio media URLs (fetched with Basic auth by the journal slice). */
  media: SmsMedia[];
}

/**
 * Appends a text (and its photos) to the user's SMS entry for the local day, creating it if needed:
 * one SMS entry per day. Implemented by the journal slice.
 */
export async function appendSmsToDayEntry(_ctx: AppContext, _input: AppendSmsInput): Promise<{ entryId: string; entryDate: string }> {
  throw new AppError('UNAVAILABLE', 'The journal is not available yet');
}
