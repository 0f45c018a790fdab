import { createHmac } from 'node:crypto';
import { countWords, ENTRY_CONTENT_MAX, type EntrySource } from '../../../shared/journal';
import type { VaultSegment } from '../../../shared/vault';
import type { AppContext } from '../../context';
import { sealedTextBound, sealFileBytes, sealSegment, sealText } from '../../crypto/sealed-box';
import type { Db } from '../../db/database';
import type { JournalEntryRow, JournalSmsUndoTable } from '../../db/tables';
import { sealedSegmentsOf } from '../entry-cipher';
import { replaceSegments } from '../repo';
import { isSealedOnArrival, type Append, type EntryCodec, type PhotoFiles, type PlainWords, type StoredWords, type TakeBack, type UndoMark, type Words } from './codec';

/** A keyed hash of a Vault entry's sealed segments (its JSON list as stored; UNDO's record): changed means edited, or another text. */
function sealedListHash(ctx: AppContext, userId: string, sealed: string): string {
  return createHmac('sha256', ctx.keys.storedHashes).update(`sms-undo-sealed:${userId}:`).update(sealed).digest('base64url');
}

/**
 * A Vault entry (docs/vault.md): its words a list of segments, each sealed to the vault's public
 * key; its photos and recordings sealed the same way. The server writes it without ever reading it.
 */
export class SealedCodec implements EntryCodec {
  readonly sealed = true;

  constructor(
    private readonly ctx: AppContext,
    private readonly userId: string,
    private readonly publicKey: string,
  ) {}

  /** The words as one sealed segment: the box they came in, or sealed now; none for no words (a photo-only text). */
  private async segment(words: Words, source: EntrySource): Promise<string | undefined> {
    if (isSealedOnArrival(words)) return words.box;
    if (!words.text) return undefined;
    const { text, title, tags } = words;
    const segment: VaultSegment = { text, ...(title ? { title } : {}), ...(tags?.length ? { tags } : {}), at: words.at.toISOString(), source };
    return sealSegment(this.publicKey, segment);
  }

  private wordCount(words: Words): number {
    return isSealedOnArrival(words) ? words.words : countWords(words.text);
  }

  private undoMark(segmentsBefore: number, sealed: string, wordsBefore: number): UndoMark {
    return { length_before: segmentsBefore, content_hash: sealedListHash(this.ctx, this.userId, sealed), words_before: wordsBefore };
  }

  async newEntry(words: Words, source: EntrySource): Promise<{ row: StoredWords; undo: UndoMark }> {
    const segment = await this.segment(words, source);
    const sealed = JSON.stringify(segment ? [segment] : []);
    return { row: { content: '', title: null, tags: '[]', sealed, word_count: this.wordCount(words) }, undo: this.undoMark(0, sealed, 0) };
  }

  /**
   * The words go on as a segment of their own, without reading the entry. Its length is known only as
   * sealedTextBound tells it: the words do not fit when that bound, the blank lines between segments
   * and the words pass the content limit (an entry without segments takes them all the same).
   */
  async append(entry: JournalEntryRow, words: Words): Promise<Append> {
    const segments = sealedSegmentsOf(entry.sealed!);
    const sealedOnArrival = isSealedOnArrival(words);
    const hasWords = sealedOnArrival || words.text !== '';
    const length = sealedTextBound(segments) + 2 * segments.length + (sealedOnArrival ? words.length : words.text.length);
    return {
      fits: !(hasWords && segments.length > 0 && length > ENTRY_CONTENT_MAX),
      write: async (trx, updatedAt) => {
        const segment = await this.segment(words, entry.source);
        const sealed = JSON.stringify(segment ? [...segments, segment] : segments);
        const wordsBefore = Number(entry.word_count);
        await replaceSegments(trx, this.userId, entry.id, { sealed, word_count: wordsBefore + this.wordCount(words), updated_at: updatedAt });
        return this.undoMark(segments.length, sealed, wordsBefore);
      },
    };
  }

  /** A transcript goes on as a segment while the entry's bound has room, as in a readable entry; past it, it stays only on its recording. */
  async appendIfRoom(trx: Db, entry: JournalEntryRow, words: PlainWords, updatedAt: string): Promise<boolean> {
    const append = await this.append(entry, words);
    if (append.fits) await append.write(trx, updatedAt);
    return append.fits;
  }

  /** The text was the segments after `length_before`; the word count goes back to the one recorded. */
  takeBack(entry: JournalEntryRow, record: JournalSmsUndoTable): TakeBack | undefined {
    if (sealedListHash(this.ctx, this.userId, entry.sealed!) !== record.content_hash) return undefined;
    const rest = sealedSegmentsOf(entry.sealed!).slice(0, record.length_before);
    return {
      empty: rest.length === 0,
      write: async (trx, updatedAt) => {
        await replaceSegments(trx, this.userId, entry.id, { sealed: JSON.stringify(rest), word_count: record.words_before ?? Number(entry.word_count), updated_at: updatedAt });
      },
    };
  }

  async clear(trx: Db, entryId: string, updatedAt: string): Promise<void> {
    await replaceSegments(trx, this.userId, entryId, { sealed: '[]', word_count: 0, updated_at: updatedAt });
  }

  async photo(photo: PhotoFiles): Promise<PhotoFiles> {
    return { full: await sealFileBytes(this.publicKey, photo.full), thumb: await sealFileBytes(this.publicKey, photo.thumb), fileName: await sealText(this.publicKey, photo.fileName) };
  }

  async audio(bytes: Buffer): Promise<Buffer> {
    return sealFileBytes(this.publicKey, bytes);
  }

  async transcript(text: string | null): Promise<string | null> {
    return sealText(this.publicKey, JSON.stringify({ transcript: text }));
  }
}
