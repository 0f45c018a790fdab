import { createHmac } from 'node:crypto';
import { countWords, ENTRY_CONTENT_MAX, type UpdateEntryInput } from '../../../shared/journal';
import { encryptFileName, encryptPhotoBytes } from '../../at-rest/photo-files';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { JournalEntryRow, JournalSmsUndoTable } from '../../db/tables';
import { encryptEntryChanges, encryptEntryText } from '../entry-cipher';
import { updateEntry } from '../repo';
import { isSealedOnArrival, type Append, type EntryCodec, type PhotoFiles, type PlainWords, type StoredWords, type TakeBack, type UndoMark, type Words } from './codec';

/** A keyed hash of an entry's content (UNDO's record): tells an unchanged entry from an edited one without keeping its text. */
function contentHash(ctx: AppContext, userId: string, content: string): string {
  return createHmac('sha256', ctx.keys.storedHashes).update(`sms-undo:${userId}:`).update(content).digest('base64url');
}

/** An entry the server reads: its words, photos and recordings encrypted with the owner's key (ctx.cipher). */
export class ServerKeyCodec implements EntryCodec {
  readonly sealed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly userId: string,
    private readonly salt: string,
  ) {}

  private encrypt(plain: string): string {
    return this.ctx.cipher.encrypt(this.userId, this.salt, plain);
  }

  /** The entry's text, decrypted. */
  decryptContent(entry: Pick<JournalEntryRow, 'content'>): string {
    return this.ctx.cipher.decrypt(this.userId, this.salt, entry.content);
  }

  private undoMark(lengthBefore: number, content: string): UndoMark {
    return { length_before: lengthBefore, content_hash: contentHash(this.ctx, this.userId, content), words_before: null };
  }

  async newEntry(words: Words): Promise<{ row: StoredWords; undo: UndoMark }> {
    if (isSealedOnArrival(words)) throw new Error('Words sealed on arrival, for an entry the server reads');
    const row = { ...encryptEntryText(this.ctx, this.userId, this.salt, { content: words.text, title: words.title ?? null, tags: words.tags ?? [] }), sealed: null, word_count: countWords(words.text) };
    return { row, undo: this.undoMark(0, words.text) };
  }

  async append(entry: JournalEntryRow, words: Words): Promise<Append> {
    // Words sealed on arrival cannot join a readable entry (the vault is being turned off): the day goes on sealed.
    if (isSealedOnArrival(words)) return { fits: false, write: () => Promise.reject(new Error('Words sealed on arrival, for an entry the server reads')) };
    const { text } = words;
    const before = this.decryptContent(entry);
    const content = !text ? before : before ? `${before}\n\n${text}` : text;
    return {
      fits: content.length <= ENTRY_CONTENT_MAX,
      write: async (trx, updatedAt) => {
        await updateEntry(trx, this.userId, entry.id, {
          ...(content !== before && { content: this.encrypt(content), word_count: countWords(content) }),
          updated_at: updatedAt,
        });
        return this.undoMark(before.length, content);
      },
    };
  }

  async appendIfRoom(trx: Db, entry: JournalEntryRow, words: PlainWords, updatedAt: string): Promise<boolean> {
    const append = await this.append(entry, words);
    if (append.fits) await append.write(trx, updatedAt);
    return append.fits;
  }

  takeBack(entry: JournalEntryRow, record: JournalSmsUndoTable): TakeBack | undefined {
    const content = this.decryptContent(entry);
    if (contentHash(this.ctx, this.userId, content) !== record.content_hash) return undefined;
    // The text went on the end, after a blank line: what was there before is the start.
    const rest = content.slice(0, record.length_before);
    return {
      empty: rest === '',
      write: async (trx, updatedAt) => {
        await updateEntry(trx, this.userId, entry.id, {
          ...(rest !== content && { content: this.encrypt(rest), word_count: countWords(rest) }),
          updated_at: updatedAt,
        });
      },
    };
  }

  async clear(trx: Db, entryId: string, updatedAt: string): Promise<void> {
    await updateEntry(trx, this.userId, entryId, { content: this.encrypt(''), word_count: 0, updated_at: updatedAt });
  }

  /** A web edit: the fields given replace the entry's, and its words are counted again when the text changes. */
  async replace(trx: Db, entryId: string, changes: Pick<UpdateEntryInput, 'content' | 'title' | 'tags'>, updatedAt: string): Promise<void> {
    await updateEntry(trx, this.userId, entryId, {
      ...encryptEntryChanges(this.ctx, this.userId, this.salt, changes),
      ...(changes.content !== undefined && { word_count: countWords(changes.content) }),
      updated_at: updatedAt,
    });
  }

  async photo(photo: PhotoFiles): Promise<PhotoFiles> {
    const { ctx, userId, salt } = this;
    return { full: encryptPhotoBytes(ctx, userId, salt, photo.full), thumb: encryptPhotoBytes(ctx, userId, salt, photo.thumb), fileName: encryptFileName(ctx, userId, salt, photo.fileName) };
  }

  async audio(bytes: Buffer): Promise<Buffer> {
    return encryptPhotoBytes(this.ctx, this.userId, this.salt, bytes);
  }

  async transcript(text: string | null): Promise<string | null> {
    return text === null ? null : this.encrypt(text);
  }
}
