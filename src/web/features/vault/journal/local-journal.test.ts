import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../../shared/journal';
import { emptyFilter } from '../../journal/filters';
import { inPlace, localEntry, onThisDayOf, pageOf, statsOf } from './local-journal';

const entry = (id: string, entry_date: string, content: string, extra: Partial<JournalEntry> = {}): JournalEntry => ({
  id,
  title: null,
  content,
  version: 1,
  source: 'web',
  entry_date,
  created_at: `${entry_date}T12:00:00.000Z`,
  updated_at: `${entry_date}T12:00:00.000Z`,
  tags: [],
  word_count: 0,
  time_zone: null,
  photos: [],
  ...extra,
});

// A Vault journal is searched here by the server's rules: the same words find the same entries.
describe('the opened Vault journal, searched and counted in the browser', () => {
  const journal = inPlace(
    [
      entry('a', '2026-11-25', 'Café with Sam', { tags: ['Friends'] }),
      entry('b', '2026-11-24', 'Long walk by the river', {
        source: 'sms',
        recordings: [{ id: 'r', url: '', mime_type: 'audio/wav', duration_seconds: 60, transcript: 'Long walk', transcript_status: 'done' }],
      }),
      entry('c', '2025-11-25', 'A year ago: the "old pier" at dusk', { title: 'Pier' }),
      entry('d', '2024-11-25', 'Two years ago', { photos: [{ id: 'p', url: '', thumbnail_url: '', file_name: 'x.jpg', file_size: 1, mime_type: 'image/jpeg' }] }),
    ].map(localEntry),
  );

  it("lists a day's SMS entry continued past the limit in order, each part at its own time, as the server does", () => {
    const day = inPlace(
      [
        entry('p2', '2026-05-06', 'part two', { source: 'sms', created_at: '2026-05-06T14:00:00.000Z' }),
        entry('w', '2026-05-06', 'typed', { created_at: '2026-05-06T13:35:00.000Z' }),
        entry('p1', '2026-05-06', 'part one', { source: 'sms', created_at: '2026-05-06T13:00:00.000Z' }),
        entry('y', '2026-05-05', 'the day before', { source: 'sms', created_at: '2026-05-05T23:00:00.000Z' }),
      ].map(localEntry),
    );
    expect(day.map((l) => l.entry.id)).toEqual(['w', 'p1', 'p2', 'y']);
    expect(day.find((l) => l.entry.id === 'p2')!.entry.created_at).toBe('2026-05-06T14:00:00.000Z');
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page = pageOf(day, emptyFilter, cursor, 1);
      walked.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(walked).toEqual(['w', 'p1', 'p2', 'y']);
  });

  it('finds words folded for case and accents, quoted phrases, tags, source, voice notes, dates and photos', () => {
    const ids = (filter: Partial<typeof emptyFilter>) => pageOf(journal, { ...emptyFilter, ...filter }, null).entries.map((e) => e.id);
    expect(ids({})).toEqual(['a', 'b', 'c', 'd']);
    expect(ids({ text: 'cafe' })).toEqual(['a']);
    expect(ids({ text: '"old pier"' })).toEqual(['c']);
    expect(ids({ text: 'pier dusk' })).toEqual(['c']);
    expect(ids({ text: 'pier sam' })).toEqual([]);
    expect(ids({ tags: ['friends'] })).toEqual(['a']);
    expect(ids({ source: 'sms' })).toEqual(['b']);
    expect(ids({ source: 'voice' })).toEqual(['b']);
    expect(ids({ dateFrom: '2025-01-01', dateTo: '2025-12-31' })).toEqual(['c']);
    expect(ids({ hasPhotos: true })).toEqual(['d']);
  });

  it('pages with a cursor that goes on where the page ended', () => {
    const first = pageOf(journal, emptyFilter, null, 3);
    expect(first.entries.map((e) => e.id)).toEqual(['a', 'b', 'c']);
    const second = pageOf(journal, emptyFilter, first.nextCursor, 3);
    expect(second).toEqual({ entries: [journal[3]!.entry], nextCursor: null });
  });

  it('counts the statistics and finds On This Day as the server does', () => {
    expect(statsOf(journal, '2026-11-25')).toEqual({ current_streak: 2, total_days: 4, total_photos: 1, total_words: 3 + 5 + 8 + 3 });
    expect(onThisDayOf(journal, '2026-11-25').map((e) => e.id)).toEqual(['c', 'd']);
  });
});
