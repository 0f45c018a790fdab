import { unzipSync, type UnzipFileInfo } from 'fflate';
import { refuseFile } from '../../../../shared/import/file-error';
import { dayOneZipLayout, isZip, parseDayOneZip, parseImportBytes, type ReadOptions } from '../../../../shared/import/read';
import type { ParsedImport } from '../../../../shared/import/types';
import { messages } from '../../../../shared/messages';

// An import file read in the browser, for a Vault user, by the server's own rules (shared/import);
// only the ZIP is opened differently: with fflate, from the file's bytes in memory.

/** The archive guards the server keeps (import/zip.ts ZIP_LIMITS), by the sizes the archive declares. */
const MAX_FILES = 20_000;
const MAX_UNPACKED_BYTES = 500 * 1024 * 1024;
const MAX_JSON_BYTES = 100 * 1024 * 1024;

export interface BrowserImportReading extends ParsedImport {
  /** A file of the ZIP (a photo, a recording), unpacked; null when it cannot be. */
  readFile(path: string): Uint8Array | null;
  /** Its declared unpacked size, 0 when unknown. */
  fileSize(path: string): number;
}

const tooBig = () => refuseFile(messages.importer.zipTooBig);

/** Unpacks the files named (and only those) from the archive. */
function unpack(bytes: Uint8Array, wanted: ReadonlySet<string>): Record<string, Uint8Array> {
  try {
    return unzipSync(bytes, { filter: (file) => wanted.has(file.name) });
  } catch {
    throw refuseFile(messages.importer.brokenZip);
  }
}

function readZip(bytes: Uint8Array, options: ReadOptions): BrowserImportReading {
  // The directory alone first: names and declared sizes, nothing inflated.
  const listed = new Map<string, UnzipFileInfo>();
  try {
    unzipSync(bytes, {
      filter: (file) => {
        if (!file.name.endsWith('/')) listed.set(file.name, file);
        return false;
      },
    });
  } catch {
    throw refuseFile(messages.importer.brokenZip);
  }
  if (listed.size > MAX_FILES) throw tooBig();
  const checkSizes = (names: readonly string[]) => {
    let total = 0;
    for (const name of names) {
      const size = listed.get(name)?.originalSize ?? 0;
      if (name.toLowerCase().endsWith('.json') && size > MAX_JSON_BYTES) throw tooBig();
      total += size;
    }
    if (total > MAX_UNPACKED_BYTES) throw tooBig();
  };
  const { journals, files } = dayOneZipLayout([...listed.keys()]);
  checkSizes(journals);
  const unpacked = unpack(bytes, new Set(journals));
  const decoder = new TextDecoder('utf-8');
  const parsed = parseDayOneZip(
    journals.map((name) => decoder.decode(unpacked[name] ?? new Uint8Array())),
    files,
    options,
  );
  checkSizes([...journals, ...parsed.entries.flatMap((e) => [...e.photos, ...e.audios].flatMap((file) => file.path ?? []))]);
  return {
    ...parsed,
    readFile(path) {
      try {
        return unzipSync(bytes, { filter: (file) => file.name === path })[path] ?? null;
      } catch {
        return null;
      }
    },
    fileSize: (path) => listed.get(path)?.originalSize ?? 0,
  };
}

/**
 * Reads an import file of any supported format, told apart by its content as the server does: a Day
 * One ZIP, Day One JSON, our JSON export, jrnl's text journal or its JSON export. A file that cannot
 * be read throws an ImportFileError with the reason in the user's words.
 */
export function readImportFile(bytes: Uint8Array, options: ReadOptions): BrowserImportReading {
  if (isZip(bytes)) return readZip(bytes, options);
  return { ...parseImportBytes(bytes, options), readFile: () => null, fileSize: () => 0 };
}
