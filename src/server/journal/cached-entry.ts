import type { JournalPhotoRow } from '../db/tables';
import type { DecryptedRecording } from '../voice/present';
import type { DecryptedEntry } from './entry-cipher';

export { listOrder } from '../../shared/journal-order';

/** A decrypted entry held in memory, with what the filters and search need worked out once. */
export interface CachedEntry extends DecryptedEntry {
  photos: JournalPhotoRow[];
  /** Its voice recordings, oldest first (a readable one's transcript decrypted). */
  recordings: DecryptedRecording[];
  foldedTags: string[];
  /** Title, text and tags folded for search (search.ts). */
  searchText: string;
  /** The instant it is listed by within its day (shared/journal-order.ts): its own time, but for an SMS continuation. */
  placed_at: string;
}
