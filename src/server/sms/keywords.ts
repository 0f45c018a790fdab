/** What a whole inbound text means when it is one of the carrier keywords. */
export type Keyword = 'opt_out' | 'opt_in' | 'help' | 'yes';

// The carrier-standard set Twilio also enforces; a keyword counts only as the whole message.
const KEYWORDS: Record<string, Keyword> = {
  STOP: 'opt_out',
  STOPALL: 'opt_out',
  UNSUBSCRIBE: 'opt_out',
  CANCEL: 'opt_out',
  END: 'opt_out',
  QUIT: 'opt_out',
  REVOKE: 'opt_out',
  OPTOUT: 'opt_out',
  START: 'opt_in',
  UNSTOP: 'opt_in',
  HELP: 'help',
  INFO: 'help',
  YES: 'yes',
};

/** The keyword a text is, trimmed and in any case; null for anything else (journal text). */
export function keywordOf(body: string): Keyword | null {
  return KEYWORDS[body.trim().toUpperCase()] ?? null;
}

/**
 * Twilio Advanced Opt-Out classifies a text itself and has already replied when it adds
 * OptOutType; we only mirror the state.
 */
export function providerKeywordOf(optOutType: string | undefined): Exclude<Keyword, 'yes'> | null {
  switch (optOutType?.trim().toUpperCase()) {
    case 'STOP':
      return 'opt_out';
    case 'START':
      return 'opt_in';
    case 'HELP':
      return 'help';
    default:
      return null;
  }
}
