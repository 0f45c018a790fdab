import { countWords, normalizeEntryText, PHOTOS_PER_ENTRY_MAX, PHOTOS_PER_ENTRY_MAX_BYTES } from '../../shared/journal';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { invalidInput } from '../errors';
import { newId } from '../ids';
import { cleanFileName, prepareImage } from '../photos/images';
import { fetchMmsMedia } from '../photos/mms';
import { entryPhotoTotals } from '../photos/repo';
import { savePhotos, writingPhotoFiles, type PreparedPhoto } from '../photos/service';
import { changeJournal } from './changes';
import { localDate } from './dates';
import { sealEntryText } from './entry-cipher';
import { loadOwner } from './owner';
import * as repo from './repo';

export interface SmsMedia {
  url: string;
  contentType: string;
}

export interface AppendSmsInput {
  userId: string;
  /** The text as received (may be empty for a photo-only MMS). */
  text: string;
  receivedAt: Date;
  /** Twilio media URLs (fetched with Basic auth by the journal slice). */
  media: SmsMedia[];
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

/**
 * Appends a text (and its photos) to the user's SMS entry for the local day, creating it if needed:
 * one SMS entry per day. Texts are separated by a blank line. Safe when two texts for the same
 * day are processed at once: the journal's writers take turns, and a unique index allows one
 * SMS entry per user and day.
 */
export async function appendSmsToDayEntry(ctx: AppContext, input: AppendSmsInput): Promise<{ entryId: string; entryDate: string }> {
  const { userId } = input;
  const owner = await loadOwner(ctx, userId);
  const entryDate = localDate(input.receivedAt, owner.timezone);
  const text = normalizeEntryText(input.text);
  const photos = input.media.length ? await mmsPhotos(ctx, input.media) : [];
  const lock = ctx.dbKind === 'postgres';

  const { entryId } = await writingPhotoFiles(ctx, (written) =>
    changeJournal(ctx, userId, async (trx) => {
      const now = ctx.clock.now().toISOString();
      let entry = await repo.findSmsDayEntry(trx, userId, entryDate, lock);
      if (!entry) {
        if (!text && photos.length === 0) throw invalidInput(messages.entries.contentEmpty);
        const id = newId();
        const inserted = await repo.insertSmsDayEntry(trx, {
          id,
          user_id: userId,
          ...sealEntryText(ctx, userId, owner.salt, { content: text, title: null, tags: [] }),
          source: 'sms',
          entry_date: entryDate,
          word_count: countWords(text),
          created_at: input.receivedAt.toISOString(),
          updated_at: now,
        });
        if (inserted) {
          await savePhotos(ctx, trx, userId, id, await photosThatFit(trx, userId, id, photos), written);
          return { entryId: id };
        }
        entry = await repo.findSmsDayEntry(trx, userId, entryDate, lock);
        if (!entry) throw new Error('The day entry was neither inserted nor found');
      }
      const before = ctx.cipher.decrypt(userId, owner.salt, entry.content);
      const content = !text ? before : before ? `${before}\n\n${text}` : text;
      await repo.updateEntry(trx, userId, entry.id, {
        ...(content !== before && { content: ctx.cipher.encrypt(userId, owner.salt, content), word_count: countWords(content) }),
        updated_at: now,
      });
      await savePhotos(ctx, trx, userId, entry.id, await photosThatFit(trx, userId, entry.id, photos), written);
      return { entryId: entry.id };
    }),
  );
  return { entryId, entryDate };
}
