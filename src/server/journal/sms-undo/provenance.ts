import type { Db } from '../../db/database';
import { addDays } from '../dates';
import type { UndoMark } from '../words';
import { forgetUndoRecordsBefore, insertUndoRecord } from './repo';

interface AppliedText {
  messageId: string;
  /** The entry the text ended in (the append's result), and what UNDO keeps of it (its codec's mark). */
  entryId: string;
  undo: UndoMark;
  /** The entries the text started (a new day entry, continuations). */
  createdEntryIds: readonly string[];
  /** The photos that went in with the text. */
  photoIds: readonly string[];
  entryDate: string;
  /** The local day the text arrived on. */
  receivedOn: string;
  now: string;
  /** The journal revision of this append (changeJournal's). */
  revision: number;
}

/**
 * Records what the text added to the day: the entries it started, the photos it added and what its
 * last entry held before it (the codec's mark). Same transaction as the append, so a text in the
 * journal always has its record. A text that starts an entry (a day's first) or goes to another
 * day (YESTERDAY:) first forgets the records that can no longer be undone: the user's records then
 * never reach back more than a few days, without a statement for every text.
 */
export async function recordSmsProvenance(trx: Db, userId: string, text: AppliedText): Promise<void> {
  // A day's margin for a change of time zone; older records can never be undone.
  if (text.createdEntryIds.length || text.entryDate !== text.receivedOn) await forgetUndoRecordsBefore(trx, userId, addDays(text.receivedOn, -2));
  await insertUndoRecord(trx, {
    message_id: text.messageId,
    user_id: userId,
    received_on: text.receivedOn,
    entry_id: text.entryId,
    // The text went on the end of the entry (after a blank line), so what was there before is a prefix.
    ...text.undo,
    created_entry_ids: JSON.stringify(text.createdEntryIds),
    photo_ids: JSON.stringify(text.photoIds),
    applied_at: text.now,
    revision: text.revision,
    undone_at: null,
    undone_by: null,
  });
}
