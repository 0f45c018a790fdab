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

/**
 * A voice recording an import file names for an entry (Day One's `audios`); its bytes are read only
 * when it is added, one at a time.
 */
export interface ImportedAudio {
  /** Where the file sits in the ZIP ('audios/MD5.m4a'); null when the file does not hold it (a Journal.json alone). */
  path: string | null;
  /** How the summary names it: its name in the ZIP, or its md5 and format. */
  fileName: string;
  /** Where it came from ('import:UUID:IDENTIFIER'): the recording is added once, however often the file is imported. */
  sourceKey: string;
  /** Our own export: the id the recording had, so importing back into the same journal adds nothing. */
  originalId?: string;
  /** Its transcript (Day One's `transcription`); null when it has none, and is to be transcribed. */
  transcript: string | null;
  /** The entry's text holds the transcript already (our own export writes it there too): not added again. */
  transcriptInText: boolean;
  /** When it was recorded (ISO-8601), when the file says. */
  recordedAt: string | null;
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
  audios: ImportedAudio[];
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
