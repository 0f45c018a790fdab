import { messages } from '../messages';
import { fileKey, isOwnExport, looksLikeDayOne, parseDayOne } from './day-one';
import { localDate } from '../zones';
import { refuseFile } from './file-error';
import { entryExample } from './reasons';
import { looksLikeJotline, parseJotline } from './jotline-json';
import { looksLikeJrnl, parseJrnl } from './jrnl';
import { looksLikeJrnlJson, parseJrnlJson } from './jrnl-json';
import { splitLongEntry } from './text';
import type { ImportedEntry, ParsedImport } from './types';

// How an import file is read, told apart by its content (never by its name): the same rules on the
// server (import/parse.ts, with the ZIP read by yauzl) and in the browser (a Vault's import, with
// the ZIP read by fflate). Only reading the archive's bytes differs.

export interface ReadOptions {
  /** The user's zone: jrnl's times are read in it, and Day One entries without a known zone. */
  timeZone: string;
  now: Date;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw refuseFile(messages.importer.brokenJson);
  }
}

/**
 * Entries past the entry limit are split (our own export held them already); repeats are marked;
 * an entry dated after tomorrow where the user is (a day ahead allows for an entry kept in a zone
 * east of theirs) is imported, and named in the summary.
 */
function finish(parsed: ParsedImport, options: ReadOptions): ParsedImport {
  const whole = parsed.format === 'jotline-json' || isOwnExport(parsed.entries);
  const entries = whole ? parsed.entries : parsed.entries.flatMap((e) => splitLongEntry(e));
  const latestDay = localDate(new Date(options.now.getTime() + 86_400_000), options.timeZone);
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.origin)) entry.repeated = true;
    seen.add(entry.origin);
    // Named by its words: the summary adds its day.
    if (entry.entryDate > latestDay) entry.leftOut.push({ reason: 'future_date', example: entryExample({ ...entry, entryDate: '' }).trim() });
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
  throw refuseFile(messages.importer.unknownFormat);
}

/** A JSON or text journal file's bytes read at once (a ZIP goes through readDayOneZip). */
export function parseImportBytes(bytes: Uint8Array, options: ReadOptions): ParsedImport {
  return finish(readText(new TextDecoder('utf-8').decode(bytes), options), options);
}

/** True when the bytes start as a ZIP does. */
export const isZip = (head: Uint8Array) => head.length >= 2 && head[0] === 0x50 && head[1] === 0x4b;

const ATTACHMENT = /^(photos|videos|audios|pdfs)\/([^/]+?)(\.[^./]*)?$/i;

/**
 * A Day One ZIP's layout from its file names: every journal's JSON at the top (or in the one folder
 * the export was unpacked to and packed again), and the attachments beside it by md5.
 */
export function dayOneZipLayout(names: readonly string[]): { journals: string[]; files: Map<string, string> } {
  let journals = names.filter((n) => /^[^/]+\.json$/i.test(n));
  let folder = '';
  if (journals.length === 0) {
    const nested = names.find((n) => /^[^/]+\/[^/]+\.json$/i.test(n));
    folder = nested ? nested.slice(0, nested.indexOf('/') + 1) : '';
    journals = names.filter((n) => n.startsWith(folder) && /^[^/]+\.json$/i.test(n.slice(folder.length)));
  }
  if (journals.length === 0) throw refuseFile(messages.importer.zipWithoutJournal);
  const files = new Map<string, string>();
  for (const name of names) {
    const match = name.startsWith(folder) ? ATTACHMENT.exec(name.slice(folder.length)) : null;
    if (match) files.set(fileKey(match[1]!.toLowerCase(), match[2]!), name);
  }
  return { journals, files };
}

/** The entries of a Day One ZIP's journals (their JSON texts, in the layout's order). */
export function parseDayOneZip(journalTexts: readonly string[], files: Map<string, string>, options: ReadOptions): ParsedImport {
  const entries: ImportedEntry[] = [];
  for (const text of journalTexts) {
    const json = parseJson(text.replace(/^\uFEFF/, ''));
    // Other JSON beside the journals is not a reason to refuse the file.
    if (looksLikeDayOne(json)) entries.push(...parseDayOne(json, options.timeZone, files));
  }
  return finish({ format: 'dayone-zip', entries }, options);
}
