import { messages } from '../../../shared/messages';
import { saveBlob } from '../../api/download';
import { journalNumberVCard } from './vcard';

/** Downloads the journal number as a contact card (.vcf), built in the browser. */
export function saveJournalNumberContact(e164: string): void {
  saveBlob(new Blob([journalNumberVCard(e164)], { type: 'text/vcard;charset=utf-8' }), messages.journalNumber.contactFile);
}
