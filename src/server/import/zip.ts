import { unzipSync } from 'fflate';
import { messages } from '../../shared/messages';
import { invalidInput } from '../errors';
import type { ImportedPhoto } from './types';

/** A ZIP's first bytes: a local file header (or an empty archive's end record). */
export function isZip(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 0x03 || bytes[2] === 0x05);
}

/** Zip-bomb guards: what a Day One export may unpack to. */
export const ZIP_LIMITS = { maxUnpackedBytes: 500 * 1024 * 1024, maxFiles: 20_000 };

export interface DayOneArchive {
  /** The journals' JSON files at the top level (one per journal: Journal.json, Travel.json…). */
  journals: { name: string; text: string }[];
  /** Photos by md5 (their file name's stem under photos/). */
  photos: Map<string, ImportedPhoto>;
}

const wanted = (name: string) => /^[^/]+\.json$/i.test(name) || /^photos\/[^/]+$/i.test(name);

/**
 * Reads a Day One ZIP export. Only the journals' JSON and photos/ are unpacked; their declared sizes
 * are summed before anything is inflated (fflate writes into a buffer of the declared size, so a
 * file that lies about its size cannot grow past it).
 */
export function readDayOneZip(bytes: Buffer, limits = ZIP_LIMITS): DayOneArchive {
  let files = 0;
  let unpacked = 0;
  let tooBig = false;
  let contents: Record<string, Uint8Array>;
  try {
    contents = unzipSync(bytes, {
      filter(file) {
        files += 1;
        if (files > limits.maxFiles) tooBig = true;
        if (tooBig || !wanted(file.name)) return false;
        unpacked += file.originalSize;
        if (unpacked > limits.maxUnpackedBytes) tooBig = true;
        return !tooBig;
      },
    });
  } catch {
    throw invalidInput(messages.importer.brokenZip);
  }
  if (tooBig) throw invalidInput(messages.importer.zipTooBig);
  const archive: DayOneArchive = { journals: [], photos: new Map() };
  for (const [name, data] of Object.entries(contents)) {
    const file = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (name.toLowerCase().startsWith('photos/')) {
      const base = name.slice('photos/'.length);
      const md5 = base.replace(/\.[^.]*$/, '').toLowerCase();
      if (md5) archive.photos.set(md5, { fileName: base, bytes: file });
    } else {
      archive.journals.push({ name, text: file.toString('utf8') });
    }
  }
  if (archive.journals.length === 0) throw invalidInput(messages.importer.zipWithoutJournal);
  return archive;
}
