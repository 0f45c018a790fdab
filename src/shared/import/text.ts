import { ENTRY_CONTENT_MAX, ENTRY_TITLE_MAX, normalizeEntryText, normalizeTitle, splitTags } from '../journal-rules';
import { messages } from '../messages';
import type { ImportedEntry } from './types';

/**
 * An entry holds 10 tags: the first 10 stay tags, and any more are kept as a last line of the text
 * ("#hiking #lake"), so an import loses none of them.
 */
export function withTags(content: string, raw: readonly string[]): { content: string; tags: string[] } {
  const tags = splitTags(raw);
  const kept = new Set(tags.map((t) => t.toLowerCase()));
  const rest: string[] = [];
  for (const tag of raw.map((t) => t.replace(/\s+/g, ' ').trim())) {
    if (tag === '' || kept.has(tag.toLowerCase())) continue;
    kept.add(tag.toLowerCase());
    rest.push(`#${tag.replace(/ /g, '_')}`);
  }
  if (rest.length === 0) return { content, tags };
  return { content: content ? `${content}\n\n${rest.join(' ')}` : rest.join(' '), tags };
}

/**
 * An imported entry's title, text and tags as the journal keeps them: a title too long for one
 * stays the first line of the text; tags past the ten an entry holds end the text.
 */
export function importedText(title: string | null, body: string, tags: readonly string[]): { title: string | null; content: string; tags: string[] } {
  const heading = (title ?? '').replace(/\s+/g, ' ').trim();
  const fits = heading.length <= ENTRY_TITLE_MAX;
  const text = normalizeEntryText(fits ? body : `${title}\n${body}`);
  return { title: fits ? normalizeTitle(heading) : null, ...withTags(text, tags) };
}

/**
 * Splits an entry longer than the entry limit into consecutive entries on the same day, each within
 * the limit, at paragraph breaks where it can (then line breaks, then spaces): nothing is lost and
 * every piece can still be edited. Each piece is titled "Title (2/3)".
 */
export function splitLongEntry(entry: ImportedEntry, max = ENTRY_CONTENT_MAX): ImportedEntry[] {
  if (entry.content.length <= max) return [entry];
  const pieces: string[] = [];
  let rest = entry.content;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = -1;
    for (const separator of ['\n\n', '\n', ' ']) {
      const at = window.lastIndexOf(separator);
      // Not too early, or one long paragraph would make many tiny pieces.
      if (at > max / 2) {
        cut = at;
        break;
      }
    }
    if (cut === -1) cut = max;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  const created = Date.parse(entry.createdAt);
  return pieces.map((content, i) => ({
    ...entry,
    origin: `${entry.origin}#${i + 1}`,
    // Room for the " (2/3)" within the title limit.
    title: messages.importer.partTitle(entry.title?.slice(0, ENTRY_TITLE_MAX - 12).trim() || null, i + 1, pieces.length),
    content,
    // A millisecond apart, so the pieces keep their order; photos and recordings stay with the first.
    createdAt: new Date(created + i).toISOString(),
    photos: i === 0 ? entry.photos : [],
    audios: i === 0 ? entry.audios : [],
    leftOut: i === 0 ? entry.leftOut : [],
    originalId: i === 0 ? entry.originalId : undefined,
  }));
}
