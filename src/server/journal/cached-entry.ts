import type { JournalPhotoRow } from '../db/tables';
import type { OpenedEntry } from './entry-cipher';

export { listOrder } from '../../shared/journal-order';

/** A decrypted entry held in memory, with what the filters and search need worked out once. */
export interface CachedEntry extends OpenedEntry {
  photos: JournalPhotoRow[];
  foldedTags: string[];
  /** Title, text and tags folded for search (search.ts). */
  searchText: string;
  /** The instant it is listed by within its day (shared/journal-order.ts): its own time, but for an SMS continuation. */
  placed_at: string;
}
