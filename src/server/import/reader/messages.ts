import type { ImportedEntry, ImportFormat } from '../../../shared/import/types';

// What the server and an import reader thread say to each other. The reader holds no keys and no
// storage credentials: it asks for the upload's parts, and the server reads and decrypts them.

export interface StartReading {
  type: 'start';
  /** The upload's size in bytes, and the size of each stored part. */
  size: number;
  partBytes: number;
  /** Entries already imported (a resumed job): these are not sent again. */
  skip: number;
  timeZone: string;
  now: string;
}

export type ToReader =
  | StartReading
  | { type: 'part'; index: number; bytes: Uint8Array | null }
  | { type: 'next' }
  /** Files of the ZIP (photos, recordings); one past `maxBytes` is not unpacked. */
  | { type: 'files'; paths: string[]; maxBytes: number };

export type FromReader =
  | { type: 'part'; index: number }
  | { type: 'opened'; format: ImportFormat; total: number }
  | { type: 'batch'; entries: ImportedEntry[]; done: boolean }
  /** A file's bytes; null when it could not be unpacked, or was larger than asked for (`tooLarge`). */
  | { type: 'files'; files: Array<{ path: string; bytes: Uint8Array | null; tooLarge?: boolean }> }
  /** `userFacing`: the message tells the user what is wrong with the file. */
  | { type: 'failed'; message: string; userFacing: boolean };
