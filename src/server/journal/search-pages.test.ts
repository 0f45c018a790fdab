import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryFilterSchema } from '../../shared/journal';
import type { CachedEntry } from './cache';
import { buildTextIndex, indexedText, pageOfEntries, rememberTextIndex, searchableText, searchTerms, spliceTextIndex, termMatcher } from './search';

// Few words, so terms are common, rare and absent in turn, and phrases sometimes span two words.
const WORDS = ['river', 'walk', 'walked', 'café', 'Cafe', 'dog', 'rain', 'work', 'sun', 'x'];
const TAGS = ['work', 'Family', 'travel'];

const entryArb = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }),
  title: fc.option(fc.constantFrom(...WORDS), { nil: null }),
  tags: fc.subarray(TAGS),
  source: fc.constantFrom('web' as const, 'sms' as const),
  day: fc.integer({ min: 1, max: 28 }),
  photos: fc.boolean(),
});

interface EntrySpec {
  words: string[];
  title: string | null;
  tags: string[];
  source: 'web' | 'sms';
  day: number;
  photos: boolean;
}

function journal(specs: EntrySpec[]): CachedEntry[] {
  return specs.map((spec, i) => {
    const at = `2026-02-${String(spec.day).padStart(2, '0')}T12:00:00.000Z`;
    return {
      id: `e${String(specs.length - i).padStart(4, '0')}`,
      title: spec.title,
      content: spec.words.join(' '),
      tags: spec.tags,
      source: spec.source,
      entry_date: at.slice(0, 10),
      word_count: spec.words.length,
      created_at: `2026-02-01T00:00:${String(specs.length - i).padStart(4, '0')}Z`,
      updated_at: at,
      photos: spec.photos ? [{ id: `p${i}` }] : [],
      foldedTags: spec.tags.map((t) => t.toLowerCase()),
    } as unknown as CachedEntry;
  });
}

describe('pages of a search', () => {
  it('walking every page finds exactly the entries that hold every term and pass every filter, in order', () => {
    fc.assert(
      fc.property(
        // Up to 300 entries: past one chunk of the search index (128 entries).
        fc.array(entryArb, { maxLength: 300, size: 'max' }),
        fc.array(fc.constantFrom(...WORDS, '"walked dog"', 'cafe', 'RIVER', 'nowhere'), { maxLength: 3 }),
        fc.record({ tag: fc.option(fc.constantFrom(...TAGS), { nil: undefined }), source: fc.constantFrom('all', 'web', 'sms'), from: fc.option(fc.integer({ min: 1, max: 28 }), { nil: undefined }), hasPhotos: fc.boolean() }),
        fc.integer({ min: 1, max: 7 }),
        (specs, words, filters, limit) => {
          const entries = journal(specs);
          const query = {
            q: words.join(' ') || undefined,
            tags: filters.tag,
            source: filters.source,
            from: filters.from ? `2026-02-${String(filters.from).padStart(2, '0')}` : undefined,
            hasPhotos: filters.hasPhotos ? 'true' : undefined,
            limit: String(limit),
          };
          const terms = searchTerms(query.q);
          const expected = entries
            .filter((e) => terms.every((term) => searchableText(e).includes(term)))
            .filter((e) => filters.source === 'all' || e.source === filters.source)
            .filter((e) => !query.from || e.entry_date >= query.from)
            .filter((e) => !filters.hasPhotos || e.photos.length > 0)
            .filter((e) => !filters.tag || e.foldedTags.includes(filters.tag.toLowerCase()))
            .map((e) => e.id);
          const seen: string[] = [];
          let cursor: string | undefined;
          for (let pages = 0; pages <= entries.length + 1; pages++) {
            const { page, nextCursor } = pageOfEntries(entries, entryFilterSchema.parse({ ...query, cursor }));
            expect(page.length).toBeLessThanOrEqual(limit);
            seen.push(...page.map((e) => e.id));
            if (!nextCursor) break;
            cursor = nextCursor;
          }
          expect(seen).toEqual(expected);
        },
      ),
      { seed: 20261123, numRuns: 400 },
    );
  });
});

describe('the search index after one entry changes', () => {
  it('holds the changed list, and finds in it what the list holds, whichever entry went and wherever the new text went', () => {
    // Few letters, so a term is often found; lists long enough to span chunks and split one.
    const textArb = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' '), maxLength: 6 });
    fc.assert(
      fc.property(
        fc.array(textArb, { maxLength: 400, size: 'max' }),
        fc.nat(),
        fc.nat(),
        fc.option(textArb, { nil: null }),
        fc.boolean(),
        fc.constantFrom('a', 'ab', 'c c', 'ba'),
        (texts, removeSeed, atSeed, text, remove, term) => {
          const removed = remove && texts.length > 0 ? removeSeed % texts.length : -1;
          const rest = texts.filter((_, i) => i !== removed);
          const at = atSeed % (rest.length + 1);
          const expected = text === null ? rest : [...rest.slice(0, at), text, ...rest.slice(at)];
          const spliced = spliceTextIndex(buildTextIndex(texts), removed, at, text);
          expect(spliced.count).toBe(expected.length);
          expect(spliced.chars).toBe(buildTextIndex(expected).chars);
          expect(expected.map((_, i) => indexedText(spliced, i))).toEqual(expected);
          // Searched through (the index stands for a list of entries of these texts).
          const entries = expected.map(() => ({}) as CachedEntry);
          rememberTextIndex(entries, spliced);
          const contains = termMatcher(entries, [term])!;
          expect(expected.map((_, i) => contains(i))).toEqual(expected.map((t) => t.includes(term)));
        },
      ),
      { seed: 20261123, numRuns: 500 },
    );
  });

  it('stays whole over many changes in one place, splitting a chunk that has grown', () => {
    let texts = Array.from({ length: 100 }, (_, i) => `old ${i}`);
    let index = buildTextIndex(texts);
    for (let n = 0; n < 600; n++) {
      // Mostly a new text at the top (today's entry), sometimes the top one replaced or one deleted.
      const removed = n % 7 === 0 ? 0 : n % 11 === 0 ? texts.length >> 1 : -1;
      const text = n % 11 === 0 ? null : `new ${n}`;
      index = spliceTextIndex(index, removed, 0, text);
      texts = texts.filter((_, i) => i !== removed);
      if (text !== null) texts.unshift(text);
    }
    expect(texts.map((_, i) => indexedText(index, i))).toEqual(texts);
    expect(index.chunks.length).toBeGreaterThan(3);
    expect(index.chunks.every((chunk) => chunk.starts.length > 0 && chunk.starts.length < 256)).toBe(true);
  });
});
