import type { EntrySource } from '../../../shared/journal';
import type { Db } from '../../db/database';
import type { JournalEntriesTable, JournalEntryRow, JournalSmsUndoTable } from '../../db/tables';

/** Words in the clear, to be encrypted or sealed as they are written. */
export interface PlainWords {
  text: string;
  title?: string | null;
  tags?: string[];
  /** When they were written. */
  at: Date;
}

/**
 * A Vault user's text as the webhook sealed it on arrival (sms/inbound.ts), before anything was
 * written: the box, and what the server may know of it.
 */
export interface SealedWords {
  /** base64 crypto_box_seal, to the vault's public key, of the segment `{text, at, source: "sms"}`. */
  box: string;
  /** Counted before sealing: the entry's word count, and the day's length bound (continuations). */
  words: number;
  length: number;
  /** YESTERDAY: … (the words sealed are what follows the command). */
  yesterday: boolean;
}

export type Words = PlainWords | SealedWords;

/** An entry's words as its row keeps them. */
export type StoredWords = Pick<JournalEntriesTable, 'content' | 'title' | 'tags' | 'sealed' | 'word_count'>;

/**
 * What UNDO's record keeps of the entry a text ended in (journal_sms_undo): its length before the
 * text (for a sealed entry, its number of segments), a keyed hash of it right after, and (sealed)
 * its word count before. Never the words themselves.
 */
export type UndoMark = Pick<JournalSmsUndoTable, 'length_before' | 'content_hash' | 'words_before'>;

/** An append worked out but not written: whether the words fit the entry, and the write. */
export interface Append {
  /** False past the entry's length limit, or for words the entry cannot hold (sealed on arrival, for an entry the server reads). */
  fits: boolean;
  write(trx: Db, updatedAt: string): Promise<UndoMark>;
}

/** UNDO worked out for an unchanged entry: what is left of its words once the text is out, and the write. */
export interface TakeBack {
  empty: boolean;
  write(trx: Db, updatedAt: string): Promise<void>;
}

/** A photo's files and name: as prepared, or as stored. */
export interface PhotoFiles {
  full: Buffer;
  thumb: Buffer;
  fileName: string;
}

/**
 * How one entry keeps its words, photos and recordings: under the server's key (server-key.ts), or
 * sealed to the vault's public key (sealed.ts). JournalWords hands one out per entry; a writer calls
 * it and never asks which it is.
 */
export interface EntryCodec {
  /** Whether what it writes is sealed to the vault: an entry's `sealed` list, a recording's `sealed` flag. */
  readonly sealed: boolean;
  /** A new entry's words as its row keeps them, and UNDO's mark for a text that started it. */
  newEntry(words: Words, source: EntrySource): Promise<{ row: StoredWords; undo: UndoMark }>;
  /** `words` appended to the entry after a blank line (a text, a transcript): worked out, then written if the writer goes on. */
  append(entry: JournalEntryRow, words: Words): Promise<Append>;
  /** A transcript appended when the entry has room for it; answers whether it was (if not, it stays only on its recording). */
  appendIfRoom(trx: Db, entry: JournalEntryRow, words: PlainWords, updatedAt: string): Promise<boolean>;
  /** UNDO of the text `record` names: undefined when the entry changed since (edited, or another text came). */
  takeBack(entry: JournalEntryRow, record: JournalSmsUndoTable): TakeBack | undefined;
  /** An entry a text started, emptied of its words (UNDO, when photos keep the entry). */
  clear(trx: Db, entryId: string, updatedAt: string): Promise<void>;
  /** A photo's files and name as they are stored. */
  photo(photo: PhotoFiles): Promise<PhotoFiles>;
  /** A recording's audio as it is stored. */
  audio(bytes: Buffer): Promise<Buffer>;
  /** A recording's transcript as it is stored; null: not transcribed yet. */
  transcript(text: string | null): Promise<string | null>;
}

export const isSealedOnArrival = (words: Words): words is SealedWords => 'box' in words;
