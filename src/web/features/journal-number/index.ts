export { JournalNumberLinks } from './JournalNumberLinks';
export { saveJournalNumberContact } from './save-contact';
export { useJournalNumber, type JournalNumber } from './useJournalNumber';
