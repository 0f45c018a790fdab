import { countWords, ENTRY_CONTENT_MAX, normalizeEntryText, PHOTOS_PER_ENTRY_MAX, PHOTOS_PER_ENTRY_MAX_BYTES } from '../../shared/journal';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import type { JournalEntryRow } from '../db/tables';
import { invalidInput } from '../errors';
import { newId } from '../ids';
import { cleanFileName, prepareImage } from '../photos/images';
import { fetchMmsMedia } from '../photos/mms';
import { entryPhotoTotals } from '../photos/repo';
import { savePhotos, writingPhotoFiles, type PreparedPhoto } from '../photos/service';
import { changeJournal } from './changes';
import { localDate } from './dates';
import { sealEntryText } from './entry-cipher';
import { recordSmsProvenance, snapshotSmsDay } from './sms-undo/provenance';
import { loadOwner, type JournalOwner } from './owner';
import * as repo from './repo';

export interface SmsMedia {
  url: string;
  contentType: string;
}

export interface AppendSmsInput {
  userId: string;
  /** The inbound text's id (sms_messages.id): however often it is processed, it is appended once. */
  messageId: string;
  /** The text as received (may be empty for a photo-only MMS). */
  text: string;
  receivedAt: Date;
  /** The day to add to (YESTERDAY: …); by default the local day the text arrived on. */
  entryDate?: string;
  /** Twilio media URLs (fetched with Basic auth by the journal slice). */
  media: SmsMedia[];
  /** The owner's salt and timezone when the caller has just read the profile (saves reading it again). */
  owner?: JournalOwner;
  /** Run inside the append's transaction: the inbound job records the text's outcome with it. */
  settle?: SettleInJournal;
}

export type SettleInJournal = (trx: Db, applied: { userId: string; entryId: string; entryDate: string }) => Promise<void>;

/** The media that download and decode as images, ready to store. */
async function mmsPhotos(ctx: AppContext, media: readonly SmsMedia[]): Promise<PreparedPhoto[]> {
  const photos: PreparedPhoto[] = [];
  for (const upload of await fetchMmsMedia(ctx, media)) {
    const image = await prepareImage(upload.bytes);
    if (image) photos.push({ ...image, fileName: cleanFileName(upload.fileName, image.ext) + `.${image.ext}` });
  }
  return photos;
}

/** The photos that still fit in the entry (10 photos, 10 MB); the rest are left out. */
async function photosThatFit(trx: Db, userId: string, entryId: string, photos: readonly PreparedPhoto[]): Promise<PreparedPhoto[]> {
  let { count, bytes } = await entryPhotoTotals(trx, userId, entryId);
  const fitting: PreparedPhoto[] = [];
  for (const photo of photos) {
    if (count + 1 > PHOTOS_PER_ENTRY_MAX || bytes + photo.full.length > PHOTOS_PER_ENTRY_MAX_BYTES) continue;
    fitting.push(photo);
    count += 1;
    bytes += photo.full.length;
  }
  return fitting;
}

/** Where a text went. */
export interface AppendedSms {
  entryId: string;
  entryDate: string;
  /**
   * Whether the text started an entry (a new day, or a continuation); undefined when an earlier
   * processing of the text had already appended it, and so whether that one did is not known here.
   */
  startedEntry: boolean | undefined;
}

/**
 * Appends a text (and its photos) to the user's SMS entry for the local day, creating it if needed:
 * one SMS entry per day, continued in a further entry for the same day when the text would take it
 * past the 10,000-character limit (or its photos would not fit), so nothing is lost. Texts are
 * separated by a blank line. Safe when two texts for the same day are processed at once: the
 * journal's writers take turns, and a unique index allows one SMS entry per user, day and part.
 * Idempotent per message: the journal records the message id with the append, so a text processed
 * again (a crash before it was marked processed) is not added twice.
 */
export async function appendSmsToDayEntry(ctx: AppContext, input: AppendSmsInput): Promise<AppendedSms> {
  const { userId, messageId } = input;
  // Checked before fetching photos, so a text processed again does not download them again; a
  // text without photos is checked once, inside the transaction.
  if (input.media.length) {
    const already = await repo.findAppliedSms(ctx.db, userId, messageId);
    if (already) return { entryId: already.entry_id, entryDate: already.entry_date, startedEntry: undefined };
  }

  const owner = input.owner ?? (await loadOwner(ctx, userId));
  if (input.owner) await ctx.cipher.prepare(userId, owner.salt);
  const receivedOn = localDate(input.receivedAt, owner.timezone);
  const entryDate = input.entryDate ?? receivedOn;
  const text = normalizeEntryText(input.text);
  const photos = input.media.length ? await mmsPhotos(ctx, input.media) : [];
  const lock = ctx.dbKind === 'postgres';

  return writingPhotoFiles(ctx, (written) =>
    changeJournal(ctx, userId, async (trx, revision) => {
      // Checked again now that this user's writers take turns: another worker may have just added it.
      const applied = await repo.findAppliedSms(trx, userId, messageId);
      if (applied) return { entryId: applied.entry_id, entryDate: applied.entry_date, startedEntry: undefined };
      const now = ctx.clock.now().toISOString();
      const before = await snapshotSmsDay(trx, userId, entryDate, photos.length > 0);
      const day = await appendToDayEntry(ctx, trx, { userId, salt: owner.salt, entryDate, text, hasPhotos: photos.length > 0, receivedAt: input.receivedAt, now, lock }, photos);
      const entryId = day.entryId;
      if (photos.length) await savePhotos(ctx, trx, userId, entryId, await photosThatFit(trx, userId, entryId, photos), written);
      await recordSmsProvenance(ctx, trx, userId, before, { ...day, messageId, entryDate, receivedOn, now, revision, addedPhotos: photos.length > 0 });
      await repo.recordAppliedSms(trx, { message_id: messageId, user_id: userId, entry_id: entryId, entry_date: entryDate, applied_at: now });
      await input.settle?.(trx, { userId, entryId, entryDate });
      return { entryId, changedEntryIds: day.createdEntryIds, entryDate, startedEntry: day.createdEntryIds.length > 0 };
    }),
  );
}

interface DayAppend {
  userId: string;
  salt: string;
  entryDate: string;
  /** Normalised; may be empty when the text carries photos. */
  text: string;
  hasPhotos: boolean;
  receivedAt: Date;
  now: string;
  /** Lock the day entry's row (PostgreSQL). */
  lock: boolean;
}

/**
 * What an append wrote: the entry the text ended in, that entry's length before the text and its
 * whole text after, and the entries the text started.
 */
interface DayWritten {
  entryId: string;
  lengthBefore: number;
  content: string;
  createdEntryIds: string[];
}

/** Creates the day's SMS entry with the text, or adds the text to it. */
async function appendToDayEntry(ctx: AppContext, trx: Db, day: DayAppend, photos: readonly PreparedPhoto[]): Promise<DayWritten> {
  const { userId, salt, text } = day;
  let entry = await repo.findSmsDayEntry(trx, userId, day.entryDate, day.lock);
  if (!entry) {
    if (!text && !day.hasPhotos) throw invalidInput(messages.entries.contentEmpty);
    const [first, ...rest] = splitForEntries(text);
    const id = newId();
    const inserted = await repo.insertSmsDayEntry(trx, {
      id,
      user_id: userId,
      ...sealEntryText(ctx, userId, salt, { content: first ?? '', title: null, tags: [] }),
      source: 'sms',
      entry_date: day.entryDate,
      word_count: countWords(first ?? ''),
      created_at: day.receivedAt.toISOString(),
      updated_at: day.now,
    });
    if (inserted) {
      if (!rest.length) return { entryId: id, lengthBefore: 0, content: first ?? '', createdEntryIds: [id] };
      const continued = await continueDay(ctx, trx, day, (await repo.findEntry(trx, userId, id))!, rest);
      return { ...continued, createdEntryIds: [id, ...continued.createdEntryIds] };
    }
    entry = await repo.findSmsDayEntry(trx, userId, day.entryDate, day.lock);
    if (!entry) throw new Error('The day entry was neither inserted nor found');
  }
  const before = ctx.cipher.decrypt(userId, salt, entry.content);
  const content = !text ? before : before ? `${before}\n\n${text}` : text;
  // Past the content limit, or without room for the photos: the day goes on in a continuation entry.
  if (content.length > ENTRY_CONTENT_MAX || !(await photosAllFit(trx, userId, entry.id, photos))) {
    return continueDay(ctx, trx, day, entry, splitForEntries(text));
  }
  await repo.updateEntry(trx, userId, entry.id, {
    ...(content !== before && { content: ctx.cipher.encrypt(userId, salt, content), word_count: countWords(content) }),
    updated_at: day.now,
  });
  return { entryId: entry.id, lengthBefore: before.length, content, createdEntryIds: [] };
}

/**
 * Starts the day's next SMS entries after `latest`, one per piece of text; returns the last one's id.
 * Each is timed a millisecond after the part before it, so the journal (newest first) lists the
 * day's parts next to each other, the continuation just above the part it continues.
 */
async function continueDay(ctx: AppContext, trx: Db, day: DayAppend, latest: JournalEntryRow, pieces: readonly string[]): Promise<DayWritten> {
  let part = latest.sms_part;
  let createdAt = new Date(latest.created_at).getTime();
  const written: DayWritten = { entryId: latest.id, lengthBefore: 0, content: '', createdEntryIds: [] };
  for (const piece of pieces.length ? pieces : ['']) {
    part += 1;
    createdAt += 1;
    const id = newId();
    const inserted = await repo.insertSmsDayEntry(trx, {
      id,
      user_id: day.userId,
      ...sealEntryText(ctx, day.userId, day.salt, { content: piece, title: null, tags: [] }),
      source: 'sms',
      entry_date: day.entryDate,
      word_count: countWords(piece),
      created_at: new Date(createdAt).toISOString(),
      updated_at: day.now,
      sms_part: part,
    });
    // The journal's writers take turns, so the part is free; if not, the text is retried later.
    if (!inserted) throw new Error('The continuation entry already exists');
    written.entryId = id;
    written.content = piece;
    written.createdEntryIds.push(id);
  }
  return written;
}

/** The text in pieces that each fit an entry (a text recorded before the webhook limit may be longer). */
function splitForEntries(text: string): string[] {
  if (!text) return [];
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += ENTRY_CONTENT_MAX) pieces.push(text.slice(at, at + ENTRY_CONTENT_MAX));
  return pieces;
}

async function photosAllFit(trx: Db, userId: string, entryId: string, photos: readonly PreparedPhoto[]): Promise<boolean> {
  if (!photos.length) return true;
  return (await photosThatFit(trx, userId, entryId, photos)).length === photos.length;
}
