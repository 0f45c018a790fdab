import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countWords, createEntrySchema, normalizeEntryText, normalizeTitle, splitTags, TAG_MAX_LENGTH, TAGS_MAX, updateEntrySchema } from './journal';

const textish = fc.string({ unit: fc.constantFrom('a', 'b', 'é', ' ', '\t', '\n', '\r', '\u00a0', 'x', '.') });

describe('normalizeEntryText', () => {
  it('collapses spaces and tabs, keeps line breaks, trims', () => {
    expect(normalizeEntryText('  Hello \t  world  \r\n\r\n  again\t')).toBe('Hello world\n\nagain');
  });

  it('is idempotent', () => {
    fc.assert(fc.property(textish, (s) => normalizeEntryText(normalizeEntryText(s)) === normalizeEntryText(s)));
  });

  it('leaves no run of spaces, no tab, no CR and nothing to trim', () => {
    fc.assert(
      fc.property(textish, (s) => {
        const out = normalizeEntryText(s);
        return !/[^\S\n]{2}|\t|\r| \n|\n /.test(out) && out === out.trim();
      }),
    );
  });

  it('keeps every word in order, and every line and paragraph break between them', () => {
    fc.assert(
      fc.property(textish, (s) => {
        const out = normalizeEntryText(s);
        expect(out.split(/\s+/).filter(Boolean)).toEqual(s.split(/\s+/).filter(Boolean));
        // Each gap between words, as 0 (same line), 1 (next line) or 2 (a new paragraph).
        const gaps = (x: string) =>
          (x.replace(/\r\n?/g, '\n').trim().replace(/[^\S\n]/g, '').match(/\n+/g) ?? []).map((run) => Math.min(run.length, 2));
        expect(out.match(/\n+/g)?.map((run) => run.length) ?? []).toEqual(gaps(s));
      }),
    );
  });

  it('keeps paragraphs apart but collapses a run of blank lines to one, in web entries and edits', () => {
    expect(normalizeEntryText('First.\n\n\n\n\nSecond.\r\n \r\n\t\r\nThird.\nFourth.')).toBe('First.\n\nSecond.\n\nThird.\nFourth.');
    expect(createEntrySchema.parse({ content: 'a\n\n\n\nb' }).content).toBe('a\n\nb');
    expect(updateEntrySchema.parse({ content: 'a\n \n \n \nb' }).content).toBe('a\n\nb');
  });
});

describe('splitTags', () => {
  it('splits by commas, trims, drops empty ones and repeats', () => {
    expect(splitTags(' work, ,life ,Work,,  deep   focus ')).toEqual(['work', 'life', 'deep focus']);
    expect(splitTags(['a,b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(splitTags(undefined)).toEqual([]);
  });

  it('gives at most 10 non-empty tags of at most 50 characters, without commas or outer spaces', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.string())), (input) => {
        const tags = splitTags(input);
        expect(tags.length).toBeLessThanOrEqual(TAGS_MAX);
        for (const tag of tags) {
          expect(tag.length).toBeGreaterThan(0);
          expect(tag.length).toBeLessThanOrEqual(TAG_MAX_LENGTH);
          expect(tag).not.toContain(',');
          expect(tag).toBe(tag.trim());
        }
        expect(new Set(tags.map((t) => t.toLowerCase())).size).toBe(tags.length);
      }),
    );
  });

  it('is stable: splitting the joined tags again gives the same tags', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        expect(splitTags(splitTags(input).join(','))).toEqual(splitTags(input));
      }),
    );
  });

  it('keeps the first 10 distinct tags in order', () => {
    const many = Array.from({ length: 15 }, (_, i) => `tag${i}`);
    expect(splitTags(many.join(','))).toEqual(many.slice(0, 10));
  });
});

describe('entry fields', () => {
  it('counts words', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('  one two\nthree ')).toBe(3);
  });

  it('cuts a title to 200 characters and empties to null', () => {
    expect(normalizeTitle('  ')).toBeNull();
    expect(normalizeTitle('a'.repeat(300))).toHaveLength(200);
  });

  it('leaves absent fields of an edit untouched, and null clears', () => {
    expect(updateEntrySchema.parse({ content: 'x' })).toEqual({ content: 'x' });
    expect(updateEntrySchema.parse({ title: null, tags: null })).toEqual({ title: null, tags: [] });
    expect(createEntrySchema.parse({ content: ' hi ' })).toEqual({ content: 'hi', title: null, tags: [] });
  });
});
