import type { JournalPhotoRow } from '../db/tables';
import type { OpenedEntry } from './entry-cipher';

/** A decrypted entry held in memory, with what the filters and search need worked out once. */
export interface CachedEntry extends OpenedEntry {
  photos: JournalPhotoRow[];
  foldedTags: string[];
  /** Title, text and tags folded for search (search.ts). */
  searchText: string;
}

/** The journal's order everywhere: by the entry's date, newest first; within a day, the newest first. */
export function listOrder(a: Pick<OpenedEntry, 'entry_date' | 'created_at' | 'id'>, b: Pick<OpenedEntry, 'entry_date' | 'created_at' | 'id'>): number {
  if (a.entry_date !== b.entry_date) return a.entry_date > b.entry_date ? -1 : 1;
  if (a.created_at !== b.created_at) return a.created_at > b.created_at ? -1 : 1;
  return a.id > b.id ? -1 : a.id < b.id ? 1 : 0;
}
