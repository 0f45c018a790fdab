import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryFilterSchema } from '../../shared/journal';
import { inListOrder } from '../../shared/journal-order';
import type { CachedEntry } from './cached-entry';
import { pageOfEntries, searchableText, searchTerms } from './search';

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

/** A journal in list order (shared/journal-order.ts). */
function journal(specs: EntrySpec[]): CachedEntry[] {
  const entries = specs.map((spec, i) => {
    const at = `2026-02-${String(spec.day).padStart(2, '0')}T12:00:00.000Z`;
    return {
      id: `e${String(specs.length - i).padStart(4, '0')}`,
      title: spec.title,
      content: spec.words.join(' '),
      tags: spec.tags,
      source: spec.source,
      entry_date: at.slice(0, 10),
      word_count: spec.words.length,
      created_at: new Date(Date.UTC(2026, 1, 1) + (specs.length - i) * 1000).toISOString(),
      updated_at: at,
      photos: spec.photos ? [{ id: `p${i}` }] : [],
      foldedTags: spec.tags.map((t) => t.toLowerCase()),
      searchText: searchableText({ title: spec.title, content: spec.words.join(' '), tags: spec.tags }),
    } as unknown as CachedEntry;
  });
  // Placed as the cache places them (a day's SMS parts in order).
  return inListOrder(entries);
}

describe('pages of a search', () => {
  it('walking every page finds exactly the entries that hold every term and pass every filter, in order', () => {
    fc.assert(
      fc.property(
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
