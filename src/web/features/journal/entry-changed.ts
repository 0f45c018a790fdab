import type { JournalEntry, ServedEntry } from '../../../shared/journal';
import { messages } from '../../../shared/messages';
import { ApiError } from '../../api/errors';

/**
 * A save refused because the entry changed after the editor opened it (a text arrived, another tab
 * saved): nothing was written, and `entry` is the entry as it reads now.
 */
export class EntryChangedError extends Error {
  readonly entry: JournalEntry;
  constructor(entry: JournalEntry) {
    super(messages.entries.entryChanged);
    this.name = 'EntryChangedError';
    this.entry = entry;
  }
}

/** The entry a 409 ENTRY_CHANGED answer carries, as the server sent it; undefined for any other error. */
export function changedEntryIn(error: unknown): ServedEntry | undefined {
  if (!(error instanceof ApiError) || error.code !== 'ENTRY_CHANGED') return undefined;
  return (error.body as { entry?: ServedEntry } | undefined)?.entry;
}
