import type { Db } from '../../db/database';
import { addDays } from '../dates';
import type { UndoMark } from '../words';
import { forgetUndoRecordsBefore, insertUndoRecord, photoIdsOf, smsDayEntryIds } from './repo';

/** A day's SMS entries and, when the text brings photos, their photos, just before it is appended. */
interface SmsDaySnapshot {
  entryIds: Set<string>;
  photoIds: Set<string>;
}

/** Taken inside the append's transaction, before the text goes in. */
export async function snapshotSmsDay(trx: Db, userId: string, entryDate: string, withPhotos: boolean): Promise<SmsDaySnapshot> {
  const entryIds = await smsDayEntryIds(trx, userId, entryDate);
  return { entryIds: new Set(entryIds), photoIds: new Set(withPhotos ? await photoIdsOf(trx, userId, entryIds) : []) };
}

interface AppliedText {
  messageId: string;
  /** The entry the text ended in (the append's result), and what UNDO keeps of it (its codec's mark). */
  entryId: string;
  undo: UndoMark;
  /** The entries the text started (a new day entry, continuations). */
  createdEntryIds: readonly string[];
  /** Whether photos went in with the text. */
  addedPhotos: boolean;
  entryDate: string;
  /** The local day the text arrived on. */
  receivedOn: string;
  now: string;
  /** The journal revision of this append (changeJournal's). */
  revision: number;
}

/**
 * Records what the text added to the day, against the snapshot taken before it: the entries it
 * started, the photos it added and the length its last entry had before it. Same transaction as the
 * append, so a text in the journal always has its record.
 */
export async function recordSmsProvenance(trx: Db, userId: string, before: SmsDaySnapshot, text: AppliedText): Promise<void> {
  // A day's margin for a change of time zone; older records can never be undone.
  await forgetUndoRecordsBefore(trx, userId, addDays(text.receivedOn, -2));
  const dayEntryIds = [...before.entryIds, ...text.createdEntryIds];
  await insertUndoRecord(trx, {
    message_id: text.messageId,
    user_id: userId,
    received_on: text.receivedOn,
    entry_id: text.entryId,
    // The text went on the end of the entry (after a blank line), so what was there before is a prefix.
    ...text.undo,
    created_entry_ids: JSON.stringify(text.createdEntryIds),
    photo_ids: JSON.stringify(text.addedPhotos ? (await photoIdsOf(trx, userId, dayEntryIds)).filter((id) => !before.photoIds.has(id)) : []),
    applied_at: text.now,
    revision: text.revision,
    undone_at: null,
    undone_by: null,
  });
}
