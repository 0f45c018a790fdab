import { createHash } from 'node:crypto';
import { ENTRY_TITLE_MAX, normalizeEntryText, normalizeTitle, splitTags } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { invalidInput } from '../errors';
import { isCalendarDay } from '../journal/dates';
import { zonedInstant } from '../reminders/schedule';
import type { ImportedEntry } from './types';

// jrnl's plain-text journal: each entry starts with a header line "[2024-03-01 18:30] Title. Rest"
// (jrnl's timeformat: "%Y-%m-%d %H:%M", or "%F %r" since jrnl 2: "2024-03-01 06:30:00 PM"); the
// title is the header's first sentence; body lines follow until the next header; @tags anywhere;
// a starred entry ends its header with " *".
const HEADER = /^\[(\d{4}-\d{2}-\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp][Mm]))?\] ?(.*)$/;
const TAG = /(?:^|[\s(])@([\p{L}\p{N}_][\p{L}\p{N}_-]*)/gu;

/** True when the text's first non-blank line is a jrnl entry header. */
export function looksLikeJrnl(text: string): boolean {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/).find((line) => line.trim() !== '');
  return first !== undefined && HEADER.test(first.trim());
}

/** The header text's first sentence, and what follows it on the line. */
export function firstSentence(header: string): { title: string; rest: string } {
  const match = /^(.*?[.?!]+)(?:\s+|$)(.*)$/s.exec(header);
  if (!match) return { title: header.trim(), rest: '' };
  // "Title." reads as "Title"; a question or an exclamation keeps its mark.
  return { title: match[1]!.replace(/(?<!\.)\.$/, '').trim(), rest: match[2]!.trim() };
}

function tagsIn(text: string): string[] {
  return splitTags([...text.matchAll(TAG)].map((m) => m[1]!));
}

function wallTime(hour: number, minute: number, meridiem: string | undefined): string | null {
  let h = hour;
  if (meridiem) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
  }
  if (h > 23 || minute > 59) return null;
  return `${String(h).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** The entries of a jrnl journal; header times are local times in `timeZone` (the user's). */
export function parseJrnl(text: string, timeZone: string): ImportedEntry[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const entries: ImportedEntry[] = [];
  let current: { day: string; at: string; seconds: number; header: string; body: string[] } | null = null;

  const finish = () => {
    if (!current) return;
    let header = current.header.trim();
    if (/\s\*$/.test(header) || header === '*') header = header.slice(0, -1).trim(); // starred
    const sentence = firstSentence(header);
    // A first sentence too long for a title stays at the start of the text.
    const [title, rest] = sentence.title.length <= ENTRY_TITLE_MAX ? [sentence.title, sentence.rest] : ['', header];
    const content = normalizeEntryText([rest, ...current.body].join('\n'));
    const created = new Date(zonedInstant(current.day, current.at, timeZone).getTime() + current.seconds * 1000).toISOString();
    const identity = createHash('sha256').update(`${current.day} ${current.at}:${current.seconds}\n${header}\n${content}`).digest('hex');
    entries.push({
      origin: `jrnl:${identity}`,
      title: normalizeTitle(title),
      content,
      tags: tagsIn(`${header}\n${content}`),
      entryDate: current.day,
      createdAt: created,
      updatedAt: created,
      source: 'web',
      photos: [],
    });
  };

  lines.forEach((line, index) => {
    const match = HEADER.exec(line);
    if (match) {
      const [, day, hour, minute, second, meridiem, header] = match;
      const at = wallTime(Number(hour), Number(minute), meridiem);
      if (!isCalendarDay(day!) || !at || Number(second ?? 0) > 59) {
        throw invalidInput(messages.importer.badEntry(entries.length + 1, `line ${index + 1} has no real date and time`));
      }
      finish();
      current = { day: day!, at, seconds: Number(second ?? 0), header: header ?? '', body: [] };
      return;
    }
    if (current) current.body.push(line);
    else if (line.trim() !== '') throw invalidInput(messages.importer.unknownFormat);
  });
  finish();
  return entries;
}
