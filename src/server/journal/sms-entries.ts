import { ENTRY_CONTENT_MAX, normalizeEntryText, PHOTOS_PER_ENTRY_MAX, PHOTOS_PER_ENTRY_MAX_BYTES } from '../../shared/journal';
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
import { sealDayEntryFirst } from './seal-entries';
import type { EntryCodec, JournalWords, SealedWords, UndoMark, Words } from './words';
import { recordSmsProvenance } from './sms-undo/provenance';
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
  /** Instead of `text`: a Vault user's words, sealed on arrival. */
  sealed?: SealedWords;
  receivedAt: Date;
  /** The day to add to (YESTERDAY: …); by default the local day the text arrived on. */
  entryDate?: string;
  /** Twilio media URLs (fetched with Basic auth by the journal slice). */
  media: SmsMedia[];
  /** The owner's salt and timezone when the caller has just read the profile (saves reading it again). */
  owner?: JournalOwner;
}

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
  /** Entries the text started (changeJournal's `changedEntryIds`). */
  changedEntryIds?: string[];
  entryDate: string;
  /**
   * Whether the text started an entry (a new day, or a continuation); undefined when an earlier
   * processing of the text had already appended it, and so whether that one did is not known here.
   */
  startedEntry: boolean | undefined;
}

/** A text ready to go into its day entry: what is read and fetched before the journal's transaction. */
export interface PreparedSms {
  input: AppendSmsInput;
  owner: JournalOwner;
  entryDate: string;
  receivedOn: string;
  text: string;
  photos: PreparedPhoto[];
}

/**
 * Everything an append needs from outside the journal's transaction: the owner, the day, the photos
 * downloaded and decoded, and (for a Vault user) the day's entry sealed if the sealing of the
 * journal has not reached it yet.
 */
export async function prepareSms(ctx: AppContext, input: AppendSmsInput): Promise<PreparedSms> {
  const owner = input.owner ?? (await loadOwner(ctx, input.userId));
  const receivedOn = localDate(input.receivedAt, owner.timezone);
  const entryDate = input.entryDate ?? receivedOn;
  const photos = input.media.length ? await mmsPhotos(ctx, input.media) : [];
  await sealDayEntryFirst(ctx, input.userId, entryDate);
  return { input, owner, entryDate, receivedOn, text: input.sealed ? '' : normalizeEntryText(input.text), photos };
}

/**
 * Appends a text (and its photos) to the user's SMS entry for the local day, creating it if needed,
 * inside a change to the journal (changeJournal's transaction, revision and words): one SMS entry per
 * day, continued in a further entry for the same day when the text would take it past the
 * 10,000-character limit (or its photos would not fit), so nothing is lost. Texts are separated by a
 * blank line. Safe when two texts for the same day are processed at once: the journal's writers take
 * turns, and a unique index allows one SMS entry per user, day and part. Idempotent per message: the
 * journal records the message id with the append, so a text processed again is not added twice.
 * `written` collects the photo files stored (writingPhotoFiles removes them if the change fails).
 */
export async function appendSms(ctx: AppContext, trx: Db, revision: number, words: JournalWords, sms: PreparedSms, written: string[]): Promise<AppendedSms> {
  const { userId, messageId } = sms.input;
  const { entryDate, photos } = sms;
  const applied = await repo.findAppliedSms(trx, userId, messageId);
  if (applied) return { entryId: applied.entry_id, entryDate: applied.entry_date, startedEntry: undefined };
  const now = ctx.clock.now().toISOString();
  const dayAppend: DayAppend = {
    userId,
    timeZone: sms.owner.timezone,
    entryDate,
    text: sms.text,
    box: sms.input.sealed,
    hasPhotos: photos.length > 0,
    receivedAt: sms.input.receivedAt,
    now,
    lock: ctx.dbKind === 'postgres',
  };
  const day = await appendToDayEntry(trx, words, dayAppend, photos);
  const entryId = day.entryId;
  // An entry's photos are kept as its words are: sealed to the vault exactly when the entry is.
  const photoIds = photos.length ? await savePhotos(ctx, trx, userId, entryId, await photosThatFit(trx, userId, entryId, photos), written, day.codec) : [];
  await recordSmsProvenance(trx, userId, { ...day, messageId, entryDate, receivedOn: sms.receivedOn, now, revision, photoIds });
  await repo.recordAppliedSms(trx, { message_id: messageId, user_id: userId, entry_id: entryId, entry_date: entryDate, applied_at: now });
  return { entryId, changedEntryIds: day.createdEntryIds, entryDate, startedEntry: day.createdEntryIds.length > 0 };
}

/** A text appended in a change of its own (tests, rehearsals); the inbound job writes its outcome beside the append (sms/inbound-rules.ts). */
export async function appendSmsToDayEntry(ctx: AppContext, input: AppendSmsInput): Promise<AppendedSms> {
  const sms = await prepareSms(ctx, input);
  return writingPhotoFiles(ctx, (written) => changeJournal(ctx, input.userId, (trx, revision, words) => appendSms(ctx, trx, revision, words, sms, written)));
}

/** Where a voice note went in its day: the entry, the entries it started, and the codec that entry is written with. */
export interface DayPlace {
  entryId: string;
  createdEntryIds: string[];
  codec: EntryCodec;
}

/**
 * A voice note's place in the journal, inside the caller's change: the day's SMS entry for
 * `entryDate` (created when there is none, continued as a text's would be), with `text` (a
 * transcript, or nothing) appended as a text is: readable, or a segment sealed to the vault.
 * Call sealDayEntryFirst before the change for a vault user.
 */
export async function appendToSmsDay(
  ctx: AppContext,
  trx: Db,
  words: JournalWords,
  input: { owner: JournalOwner; entryDate: string; receivedAt: Date; text: string },
): Promise<DayPlace> {
  const day: DayAppend = {
    userId: input.owner.userId,
    timeZone: input.owner.timezone,
    entryDate: input.entryDate,
    text: normalizeEntryText(input.text),
    box: undefined,
    // A recording is what the entry holds, as a photo is: the day entry may start without words.
    hasPhotos: true,
    receivedAt: input.receivedAt,
    now: ctx.clock.now().toISOString(),
    lock: ctx.dbKind === 'postgres',
  };
  const written = await appendToDayEntry(trx, words, day, []);
  return { entryId: written.entryId, createdEntryIds: written.createdEntryIds, codec: written.codec };
}

interface DayAppend {
  userId: string;
  /** The account's zone as the text arrives: the zone its time is shown in. */
  timeZone: string;
  entryDate: string;
  /** Normalised; may be empty when the text carries photos, and is when its words came sealed (`box`). */
  text: string;
  box: SealedWords | undefined;
  hasPhotos: boolean;
  receivedAt: Date;
  now: string;
  /** Lock the day entry's row (PostgreSQL). */
  lock: boolean;
}

/** A piece of the text (or the words sealed on arrival), as the codec takes it. */
function wordsOf(day: DayAppend, piece: string): Words {
  return day.box ?? { text: piece, at: day.receivedAt };
}

/**
 * What an append wrote: the entry the text ended in and UNDO's mark of it, the entries the text
 * started, and the codec that entry is written with (its photos go the same way).
 */
interface DayWritten {
  entryId: string;
  undo: UndoMark;
  createdEntryIds: string[];
  codec: EntryCodec;
}

/** Creates the day's SMS entry with the text, or adds the text to it. */
async function appendToDayEntry(trx: Db, words: JournalWords, day: DayAppend, photos: readonly PreparedPhoto[]): Promise<DayWritten> {
  const { userId, text } = day;
  let entry = await repo.findSmsDayEntry(trx, userId, day.entryDate, day.lock);
  if (!entry) {
    if (!text && !day.box && !day.hasPhotos) throw invalidInput(messages.entries.contentEmpty);
    const [first, ...rest] = splitForEntries(text);
    const id = newId();
    const codec = words.forNewEntry(day.box !== undefined);
    const { row, undo } = await codec.newEntry(wordsOf(day, first ?? ''), 'sms');
    const inserted = await repo.insertSmsDayEntry(trx, {
      id,
      user_id: userId,
      ...row,
      source: 'sms',
      entry_date: day.entryDate,
      time_zone: day.timeZone,
      created_at: day.receivedAt.toISOString(),
      updated_at: day.now,
    });
    if (inserted) {
      if (!rest.length) return { entryId: id, undo, createdEntryIds: [id], codec };
      const continued = await continueDay(trx, words, day, (await repo.findEntry(trx, userId, id))!, rest);
      return { ...continued, createdEntryIds: [id, ...continued.createdEntryIds] };
    }
    entry = await repo.findSmsDayEntry(trx, userId, day.entryDate, day.lock);
    if (!entry) throw new Error('The day entry was neither inserted nor found');
  }
  const codec = words.forEntry(entry);
  const append = await codec.append(entry, wordsOf(day, text));
  // Past the content limit (or words sealed on arrival for an entry the server reads), or without
  // room for the photos: the day goes on in a continuation entry.
  if (!append.fits || !(await photosAllFit(trx, userId, entry.id, photos))) {
    return continueDay(trx, words, day, entry, splitForEntries(text));
  }
  return { entryId: entry.id, undo: await append.write(trx, day.now), createdEntryIds: [], codec };
}

/**
 * Starts the day's next SMS entries after `latest`, one per piece of text; returns the last one's id.
 * Each carries the time of the text that started it (a millisecond after the part before, should
 * that be later), so parts run in time as in number; the journal lists them in order, each just
 * below the part it continues (shared/journal-order.ts).
 */
async function continueDay(trx: Db, words: JournalWords, day: DayAppend, latest: JournalEntryRow, pieces: readonly string[]): Promise<DayWritten> {
  let part = latest.sms_part;
  let createdAt = Math.max(day.receivedAt.getTime(), new Date(latest.created_at).getTime() + 1) - 1;
  const codec = words.forContinuation(latest, day.box !== undefined);
  // Words sealed on arrival are one segment, never split (the webhook's limit keeps them far below an entry's).
  const createdEntryIds: string[] = [];
  let last: { entryId: string; undo: UndoMark } | undefined;
  for (const piece of pieces.length ? pieces : ['']) {
    part += 1;
    createdAt += 1;
    const id = newId();
    const { row, undo } = await codec.newEntry(wordsOf(day, piece), 'sms');
    const inserted = await repo.insertSmsDayEntry(trx, {
      id,
      user_id: day.userId,
      ...row,
      source: 'sms',
      entry_date: day.entryDate,
      time_zone: day.timeZone,
      created_at: new Date(createdAt).toISOString(),
      updated_at: day.now,
      sms_part: part,
    });
    // The journal's writers take turns, so the part is free; if not, the text is retried later.
    if (!inserted) throw new Error('The continuation entry already exists');
    createdEntryIds.push(id);
    last = { entryId: id, undo };
  }
  return { ...last!, createdEntryIds, codec };
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
