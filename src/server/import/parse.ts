import { ImportFileError } from '../../shared/import/file-error';
import { dayOneZipLayout, isZip, parseDayOneZip, parseImportBytes, type ReadOptions } from '../../shared/import/read';
import type { ParsedImport } from '../../shared/import/types';
import { invalidInput } from '../errors';
import { checkUnpackedSizes, openZip, type ByteSource } from './zip';

// The rules of reading a file are shared with the browser (shared/import/read.ts); here the ZIP is
// read by range from the stored upload, and a file the rules refuse is the user's invalid input.

/** An import file read: its entries, and (for a ZIP) a way to the photos and recordings they name. */
export interface ImportReading extends ParsedImport {
  readFile(path: string): Promise<Buffer>;
  fileSize(path: string): number;
}

async function asInput<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof ImportFileError ? invalidInput(error.message) : error;
  }
}

async function readZip(source: ByteSource, options: ReadOptions): Promise<ImportReading> {
  const archive = await openZip(source);
  const { journals, files } = dayOneZipLayout([...archive.files.keys()]);
  checkUnpackedSizes(archive, journals);
  const texts: string[] = [];
  for (const name of journals) texts.push((await archive.read(name)).toString('utf8'));
  const parsed = parseDayOneZip(texts, files, options);
  checkUnpackedSizes(archive, [...journals, ...parsed.entries.flatMap((e) => [...e.photos, ...e.audios].flatMap((file) => file.path ?? []))]);
  return { ...parsed, readFile: (path) => archive.read(path), fileSize: (path) => archive.files.get(path)?.uncompressedSize ?? 0 };
}

const noFiles = async (): Promise<Buffer> => {
  throw new Error('This import file holds no photos or recordings');
};

/** A JSON or text journal file read at once (the reader thread reads ZIPs, and everything else). */
export function parseImportFile(bytes: Buffer, timeZone: string, now = new Date()): ParsedImport {
  try {
    return parseImportBytes(bytes, { timeZone, now });
  } catch (error) {
    throw error instanceof ImportFileError ? invalidInput(error.message) : error;
  }
}

/**
 * Reads an import file of any supported format, told apart by its content (never by its name): a
 * Day One ZIP, Day One JSON, our JSON export, jrnl's text journal or its JSON export. A broken or
 * unknown file is refused with a clear message before anything is imported.
 */
export async function readImport(source: ByteSource, options: ReadOptions): Promise<ImportReading> {
  const head = await source.read(0, Math.min(source.size, 4));
  if (isZip(head)) return asInput(() => readZip(source, options));
  return { ...parseImportFile(await source.read(0, source.size), options.timeZone, options.now), readFile: noFiles, fileSize: () => 0 };
}
