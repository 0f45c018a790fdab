import { messages } from '../../../shared/messages';

/** CRLF line ends, as RFC 6350 asks; escapes what vCard text values must not carry raw. */
const escape = (text: string) => text.replace(/\\/g, '\\\\').replace(/,/g, '\\,').replace(/;/g, '\\;').replace(/\n/g, '\\n');

/** A contact card (vCard 3.0, which phones' address books all read) for the journal number. */
export function journalNumberVCard(e164: string): string {
  const name = escape(messages.journalNumber.contactName);
  return ['BEGIN:VCARD', 'VERSION:3.0', `FN:${name}`, `N:;${name};;;`, `ORG:${name}`, `TEL;TYPE=CELL,VOICE:${e164}`, 'END:VCARD', ''].join('\r\n');
}
