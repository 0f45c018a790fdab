import { createHmac } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { addDays } from '../dates';
import { forgetUndoRecordsBefore, insertUndoRecord, photoIdsOf, smsDayEntryIds } from './repo';

/** A day's SMS entries and, when the text brings photos, their photos, just before it is appended. */
interface SmsDaySnapshot {
  entryIds: Set<string>;
  photoIds: Set<string>;
}

/** A keyed hash of an entry's content: tells an unchanged entry from an edited one without keeping its text. */
export function contentHash(ctx: AppContext, userId: string, content: string): string {
  return createHmac('sha256', ctx.keys.storedHashes).update(`sms-undo:${userId}:`).update(content).digest('base64url');
}

/** The same for a Vault entry's sealed segments (its JSON list as stored): changed means edited, or another text. */
export function sealedListHash(ctx: AppContext, userId: string, sealed: string): string {
  return createHmac('sha256', ctx.keys.storedHashes).update(`sms-undo-sealed:${userId}:`).update(sealed).digest('base64url');
}

/** Taken inside the append's transaction, before the text goes in. */
export async function snapshotSmsDay(trx: Db, userId: string, entryDate: string, withPhotos: boolean): Promise<SmsDaySnapshot> {
  const entryIds = await smsDayEntryIds(trx, userId, entryDate);
  return { entryIds: new Set(entryIds), photoIds: new Set(withPhotos ? await photoIdsOf(trx, userId, entryIds) : []) };
}

interface AppliedText {
  messageId: string;
  /**
   * The entry the text ended in (the append's result), its length before the text, and its whole
   * text now; for a Vault entry (`sealed`), its number of segments before, its sealed list now, and
   * its word count before (`wordsBefore`).
   */
  entryId: string;
  lengthBefore: number;
  content: string;
  sealed: boolean;
  wordsBefore: number | null;
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
export async function recordSmsProvenance(ctx: AppContext, trx: Db, userId: string, before: SmsDaySnapshot, text: AppliedText): Promise<void> {
  // A day's margin for a change of time zone; older records can never be undone.
  await forgetUndoRecordsBefore(trx, userId, addDays(text.receivedOn, -2));
  const dayEntryIds = [...before.entryIds, ...text.createdEntryIds];
  await insertUndoRecord(trx, {
    message_id: text.messageId,
    user_id: userId,
    received_on: text.receivedOn,
    entry_id: text.entryId,
    // The text went on the end of the entry (after a blank line), so what was there before is a prefix.
    length_before: text.lengthBefore,
    content_hash: text.sealed ? sealedListHash(ctx, userId, text.content) : contentHash(ctx, userId, text.content),
    words_before: text.sealed ? text.wordsBefore : null,
    created_entry_ids: JSON.stringify(text.createdEntryIds),
    photo_ids: JSON.stringify(text.addedPhotos ? (await photoIdsOf(trx, userId, dayEntryIds)).filter((id) => !before.photoIds.has(id)) : []),
    applied_at: text.now,
    revision: text.revision,
    undone_at: null,
    undone_by: null,
  });
}
