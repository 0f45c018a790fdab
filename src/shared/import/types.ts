import type { EntrySource } from '../journal-rules';
import type { ImportReason } from '../import';

/** A photo an import file names for an entry; its bytes are read only when the photo is wanted. */
export interface ImportedPhoto {
  /** Where the file sits in the ZIP ('photos/MD5.jpeg'); null when the file does not hold it. */
  path: string | null;
  fileName: string;
  /** Unique within the entry's format ('dayone-photo:UUID:IDENTIFIER'); stored only as a keyed hash. */
  origin: string;
  /** Our own export: the id the photo had, so importing back into the same journal adds nothing. */
  originalId?: string;
}

/** Something of an entry the journal cannot keep (a video, a photo missing from the ZIP…). */
export interface LeftOut {
  reason: ImportReason;
  /** What it was, for the summary's examples: a file name, never the entry's text. */
  example: string;
}

/** One entry read from an import file, before it is written to the journal. */
export interface ImportedEntry {
  /**
   * Where the entry came from, unique within its format ("dayone:UUID", "jrnl:…", "jotline:ID");
   * stored only as a keyed hash.
   */
  origin: string;
  title: string | null;
  content: string;
  tags: string[];
  /** The local day (YYYY-MM-DD) the entry belongs to. */
  entryDate: string;
  /** ISO-8601 instants. */
  createdAt: string;
  updatedAt: string;
  /** The IANA zone the entry's day and time are read in. */
  timeZone: string;
  source: EntrySource;
  photos: ImportedPhoto[];
  leftOut: LeftOut[];
  /** Our own export: the id the entry had, so re-importing into the same journal adds nothing. */
  originalId?: string;
  /** The same entry came earlier in the file. */
  repeated?: boolean;
}

export type ImportFormat = 'dayone-json' | 'dayone-zip' | 'jrnl' | 'jrnl-json' | 'jotline-json';

export interface ParsedImport {
  format: ImportFormat;
  entries: ImportedEntry[];
}
