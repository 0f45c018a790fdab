import type { EntrySource } from '../../shared/journal';

/** A photo found in an import file, not yet decoded. */
export interface ImportedPhoto {
  fileName: string;
  bytes: Buffer;
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
  source: EntrySource;
  photos: ImportedPhoto[];
  /** Our own export: the id the entry had, so re-importing into the same journal adds nothing. */
  originalId?: string;
}

export type ImportFormat = 'dayone-json' | 'dayone-zip' | 'jrnl' | 'jotline-json';

export interface ParsedImport {
  format: ImportFormat;
  entries: ImportedEntry[];
}
