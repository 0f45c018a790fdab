import { DEFAULT_JOURNAL_NUMBER, formatUsPhone } from '../../../shared/site';

// The build sets VITE_JOURNAL_NUMBER from JOURNAL_NUMBER (scripts/build.mjs), so the pages publish the
// number the server answers on.
const fromBuild = import.meta.env.VITE_JOURNAL_NUMBER as string | undefined;

/** The published journal number, E.164. */
export const JOURNAL_NUMBER = fromBuild && /^\+1\d{10}$/.test(fromBuild) ? fromBuild : DEFAULT_JOURNAL_NUMBER;

/** The journal number as people read it: (555) 555-0100. */
export const JOURNAL_NUMBER_DISPLAY = formatUsPhone(JOURNAL_NUMBER);

/** Opens the messaging app with the journal number filled in. */
export const JOURNAL_NUMBER_SMS_HREF = `sms:${JOURNAL_NUMBER}`;
