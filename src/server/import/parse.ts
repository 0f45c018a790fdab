import { messages } from '../../shared/messages';
import { invalidInput } from '../errors';
import { fileKey, isOwnExport, looksLikeDayOne, parseDayOne } from './day-one';
import { looksLikeJotline, parseJotline } from './jotline-json';
import { looksLikeJrnl, parseJrnl } from './jrnl';
import { looksLikeJrnlJson, parseJrnlJson } from './jrnl-json';
import { splitLongEntry } from './text';
import type { ImportedEntry, ParsedImport } from './types';
import { checkUnpackedSizes, openZip, type ByteSource } from './zip';

interface ReadOptions {
  /** The user's zone: jrnl's times are read in it, and Day One entries without a known zone. */
  timeZone: string;
  now: Date;
}

/** An import file read: its entries, and (for a ZIP) a way to the photos they name. */
export interface ImportReading extends ParsedImport {
  readFile(path: string): Promise<Buffer>;
  fileSize(path: string): number;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalidInput(messages.importer.brokenJson);
  }
}

/** Entries past the entry limit are split (our own export held them already); repeats are marked. */
function finish(parsed: ParsedImport): ParsedImport {
  const whole = parsed.format === 'jotline-json' || isOwnExport(parsed.entries);
  const entries = whole ? parsed.entries : parsed.entries.flatMap((e) => splitLongEntry(e));
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.origin)) entry.repeated = true;
    seen.add(entry.origin);
  }
  return { ...parsed, entries };
}

function readText(text: string, options: ReadOptions): ParsedImport {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  // An empty journal is a journal of no entries.
  if (start === '') return { format: 'jrnl', entries: [] };
  if (looksLikeJrnl(start)) return { format: 'jrnl', entries: parseJrnl(text, options.timeZone, options.now) };
  if (start.startsWith('{')) {
    const json = parseJson(start);
    if (looksLikeDayOne(json)) return { format: 'dayone-json', entries: parseDayOne(json, options.timeZone) };
    if (looksLikeJotline(json)) return { format: 'jotline-json', entries: parseJotline(json, options.timeZone) };
    if (looksLikeJrnlJson(json)) return { format: 'jrnl-json', entries: parseJrnlJson(json, options.timeZone, options.now) };
  }
  throw invalidInput(messages.importer.unknownFormat);
}

const ATTACHMENT = /^(photos|videos|audios|pdfs)\/([^/]+?)(\.[^./]*)?$/i;

/**
 * A Day One ZIP: every journal's JSON at the top (or in the one folder the export was unpacked to
 * and packed again), and the attachments beside it by md5.
 */
async function readZip(source: ByteSource, options: ReadOptions): Promise<ImportReading> {
  const archive = await openZip(source);
  const names = [...archive.files.keys()];
  let journals = names.filter((n) => /^[^/]+\.json$/i.test(n));
  let folder = '';
  if (journals.length === 0) {
    const nested = names.find((n) => /^[^/]+\/[^/]+\.json$/i.test(n));
    folder = nested ? nested.slice(0, nested.indexOf('/') + 1) : '';
    journals = names.filter((n) => n.startsWith(folder) && /^[^/]+\.json$/i.test(n.slice(folder.length)));
  }
  if (journals.length === 0) throw invalidInput(messages.importer.zipWithoutJournal);
  checkUnpackedSizes(archive, journals);
  const files = new Map<string, string>();
  for (const name of names) {
    const match = name.startsWith(folder) ? ATTACHMENT.exec(name.slice(folder.length)) : null;
    if (match) files.set(fileKey(match[1]!.toLowerCase(), match[2]!), name);
  }
  const entries: ImportedEntry[] = [];
  for (const name of journals) {
    const json = parseJson((await archive.read(name)).toString('utf8').replace(/^\uFEFF/, ''));
    // Other JSON beside the journals is not a reason to refuse the file.
    if (looksLikeDayOne(json)) entries.push(...parseDayOne(json, options.timeZone, files));
  }
  const parsed = finish({ format: 'dayone-zip', entries });
  checkUnpackedSizes(archive, [...journals, ...parsed.entries.flatMap((e) => e.photos.flatMap((p) => p.path ?? []))]);
  return { ...parsed, readFile: (path) => archive.read(path), fileSize: (path) => archive.files.get(path)?.uncompressedSize ?? 0 };
}

const noFiles = async (): Promise<Buffer> => {
  throw new Error('This import file holds no photos');
};

/** A JSON or text journal file read at once (the reader thread reads ZIPs, and everything else). */
export function parseImportFile(bytes: Buffer, timeZone: string, now = new Date()): ParsedImport {
  return finish(readText(new TextDecoder('utf-8').decode(bytes), { timeZone, now }));
}

/**
 * Reads an import file of any supported format, told apart by its content (never by its name): a
 * Day One ZIP, Day One JSON, our JSON export, jrnl's text journal or its JSON export. A broken or
 * unknown file is refused with a clear message before anything is imported.
 */
export async function readImport(source: ByteSource, options: ReadOptions): Promise<ImportReading> {
  const head = await source.read(0, Math.min(source.size, 4));
  if (head.length >= 2 && head[0] === 0x50 && head[1] === 0x4b) return readZip(source, options);
  return { ...parseImportFile(await source.read(0, source.size), options.timeZone, options.now), readFile: noFiles, fileSize: () => 0 };
}
