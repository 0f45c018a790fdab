import { foldText } from '../../../shared/search-text';

/** A stretch of an entry's text, and whether a search term matched it. */
export interface MarkedPart {
  text: string;
  marked: boolean;
}

/**
 * Where the search terms occur in a text, as [start, end) in the text's own indices, in order and
 * merged. Matched as search matches (shared/search-text.ts): folded case and accents, any run of
 * white space as one space.
 */
export function searchMarkRanges(text: string, terms: readonly string[]): Array<[number, number]> {
  if (terms.length === 0 || text === '') return [];
  // The folded text, and for each of its characters the stretch of the original it came from.
  let folded = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let index = 0;
  for (const char of text) {
    const next = index + char.length;
    const isSpace = /\s/u.test(char);
    if (isSpace && folded.endsWith(' ')) {
      ends[ends.length - 1] = next;
    } else {
      for (const piece of isSpace ? ' ' : foldText(char)) {
        folded += piece;
        starts.push(index);
        ends.push(next);
      }
    }
    index = next;
  }
  const ranges: Array<[number, number]> = [];
  for (const term of terms) {
    for (let at = folded.indexOf(term); at !== -1 && term !== ''; at = folded.indexOf(term, at + term.length)) {
      ranges.push([starts[at]!, ends[at + term.length - 1]!]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/** The text cut into plain and matched stretches. */
export function markSearchTerms(text: string, terms: readonly string[]): MarkedPart[] {
  const parts: MarkedPart[] = [];
  let last = 0;
  for (const [start, end] of searchMarkRanges(text, terms)) {
    if (start > last) parts.push({ text: text.slice(last, start), marked: false });
    parts.push({ text: text.slice(start, end), marked: true });
    last = end;
  }
  if (last < text.length || parts.length === 0) parts.push({ text: text.slice(last), marked: false });
  return parts;
}
