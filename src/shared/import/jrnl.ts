import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { messages } from '../messages';
import { refuseFile } from './file-error';
import { zonedInstant } from '../zones';
import { dayOrder, parseJrnlDate, type DayOrder, type WallClock } from './jrnl-dates';
import { importedText } from './text';
import type { ImportedEntry } from './types';

// jrnl's plain-text journal, read as jrnl reads it (jrnl/journals/Journal.py and Entry.py): an entry
// starts at a line "[DATE] " whose DATE parses; its text runs to the next such line. The first line
// is the title (when the text is one line, its first sentence), the rest the body; a first line
// ending in "*" marks it starred; tags are "@" words (@c++, @os/2), lower-cased. jrnl 1.x files
// have no brackets: "2013-06-10 15:40 Title", bracketed lines there being body text.

const BRACKETED = /^\[([^\]\n]+)\](?: (.*)|\s*)$/;
const LEGACY = /^(\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}(?::\d{2})?(?: ?[AaPp][Mm])?|\d{1,2}[./-]\d{1,2}[./-]\d{4} \d{1,2}:\d{2}(?::\d{2})?(?: ?[AaPp][Mm])?)(?: (.*)|\s*)$/;
// jrnl's Entry.tag_regex with its default tag symbol: (?<!\S)([@][-+*#/\w]+).
const TAG = /(?<!\S)@([-+*#/\p{L}\p{M}\p{N}_]+)/gu;
// jrnl's SENTENCE_SPLITTER (after Segtok): a terminal, an optional closing quote and brackets, spaces.
const SENTENCE = /[.!?\u2026\u203C\u203D\u2047\u2048\u2049\u22EF\uFE52\uFE57]['\u2019"\u201D]?[\])]*\s+|[\uFF01\uFF0E\uFF1F\uFF61\u3002]/u;
// Python's str.splitlines, which jrnl uses to find the first line.
// eslint-disable-next-line no-control-regex
const LINES = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

const firstLine = (text: string) => text.replace(/^\uFEFF/, '').split(/\r?\n|\r/).find((line) => line.trim() !== '');

/** True when the text's first non-blank line starts a jrnl entry (jrnl 2 and later, or 1.x). */
export function looksLikeJrnl(text: string): boolean {
  const first = firstLine(text)?.trimEnd();
  if (first === undefined) return false;
  const bracketed = BRACKETED.exec(first);
  const legacy = LEGACY.exec(first);
  const blob = bracketed?.[1] ?? legacy?.[1];
  return blob !== undefined && parseJrnlDate(blob, 'dmy', new Date()) !== null;
}

/** jrnl's split_title: the first line is the title; text of one line splits at its first sentence. */
export function splitTitle(text: string): { title: string; body: string } {
  const newline = text.trimStart().indexOf('\n');
  if (newline !== -1) return { title: text.slice(0, newline + 1).trim(), body: text.slice(newline + 1).trim() };
  const sentence = SENTENCE.exec(text);
  if (!sentence) return { title: text, body: '' };
  const end = sentence.index + sentence[0].length;
  return { title: text.slice(0, end).trim(), body: text.slice(end).trim() };
}

/** The tags jrnl finds in an entry's text: "@" words, lower-cased, without the "@". */
export function jrnlTags(text: string): string[] {
  return [...new Set([...text.matchAll(TAG)].map((m) => m[1]!.toLowerCase()))];
}

/**
 * jrnl's identity of an entry: the same from its text journal and from its JSON export, and alike
 * on the server and in the browser (a synchronous SHA-256: the Web Crypto digest would make every
 * parser asynchronous).
 */
function jrnlOrigin(day: string, time: string, title: string, body: string): string {
  return `jrnl:${bytesToHex(sha256(utf8ToBytes(`${day} ${time}\n${title}\n${body}`)))}`;
}

/** An entry from jrnl's parts: title and body as jrnl splits them, times in `timeZone`. */
export function jrnlEntry(at: WallClock, parts: { title: string; body: string; tags: string[]; starred: boolean }, timeZone: string): ImportedEntry {
  const created = new Date(zonedInstant(at.day, at.time, timeZone).getTime() + at.seconds * 1000).toISOString();
  return {
    origin: jrnlOrigin(at.day, at.time, parts.title, parts.body),
    ...importedText(parts.title, parts.body, [...parts.tags, ...(parts.starred ? ['starred'] : [])]),
    entryDate: at.day,
    createdAt: created,
    updatedAt: created,
    timeZone,
    source: 'web',
    photos: [],
    audios: [],
    leftOut: [],
  };
}

/** jrnl's Entry._parse_text: a starred first line loses its "*", then title, body and tags. */
function readEntryText(text: string, at: WallClock, timeZone: string): ImportedEntry {
  const lines = text.split(LINES);
  let raw = text;
  let starred = false;
  if (lines.length && lines[0]!.trim().endsWith('*')) {
    starred = true;
    raw = `${lines[0]!.replace(/^[\n *]+|[\n *]+$/g, '')}\n${lines.slice(1).join('\n')}`;
  }
  return jrnlEntry(at, { ...splitTitle(raw), tags: jrnlTags(text), starred }, timeZone);
}

/** The entries of a jrnl text journal; its times are wall-clock times in `timeZone` (the user's). */
export function parseJrnl(text: string, timeZone: string, now: Date): ImportedEntry[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n|\r/);
  const legacy = LEGACY.test(firstLine(text)?.trimEnd() ?? '');
  const header = legacy ? LEGACY : BRACKETED;
  const order: DayOrder = dayOrder(lines.flatMap((line) => header.exec(line.trimEnd())?.[1] ?? []));
  const entries: ImportedEntry[] = [];
  let current: { at: WallClock; lines: string[] } | null = null;
  const finish = () => {
    if (current) entries.push(readEntryText(current.lines.join('\n'), current.at, timeZone));
  };

  lines.forEach((line, index) => {
    const match = header.exec(legacy ? line.trimEnd() : line);
    const at = match ? parseJrnlDate(match[1]!, order, now) : null;
    if (at === 'invalid') throw refuseFile(messages.importer.badEntry(entries.length + (current ? 2 : 1), `line ${index + 1} has no real date and time`));
    if (at) {
      finish();
      current = { at, lines: [match![2] ?? ''] };
    } else if (current) {
      current.lines.push(line);
    }
  });
  finish();
  return entries;
}
