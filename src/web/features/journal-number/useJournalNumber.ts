import { formatUsPhone } from '../../../shared/site';
import { JOURNAL_NUMBER } from '../../components/marketing/journalNumber';
import { useLoadedProfile } from '../journal/queries';

export interface JournalNumber {
  /** E.164: '+15555550100'. */
  e164: string;
  /** As people read it: '(555) 555-0100'. */
  display: string;
  /** Opens the messaging app with the number filled in. */
  smsHref: string;
}

/**
 * The number the signed-in user texts. The profile the page loads anyway (journal, settings) says which
 * number the server answers on; this only reads it, so it never adds a request or its own retry rules.
 * Until then (or without it) the number the build published is shown; both come from JOURNAL_NUMBER.
 */
export function useJournalNumber(): JournalNumber {
  const e164 = useLoadedProfile()?.journal_number || JOURNAL_NUMBER;
  return { e164, display: formatUsPhone(e164), smsHref: `sms:${e164}` };
}
