import { describe, expect, it } from 'vitest';
import { countRefinements, emptyFilter, entriesPath, filterFromParams, filterToParams, isFilterActive } from './filters';

describe('search filter', () => {
  it('asks for every entry when nothing is filtered', () => {
    expect(entriesPath(emptyFilter)).toBe('/api/entries');
    expect(isFilterActive(emptyFilter)).toBe(false);
  });

  it('builds the query from every filter, trimming the words', () => {
    const filter = { text: '  morning coffee ', dateFrom: '2026-01-01', dateTo: '2026-02-01', tags: ['calm', 'home'], source: 'web' as const, hasPhotos: true };
    expect(entriesPath(filter)).toBe('/api/entries?q=morning+coffee&from=2026-01-01&to=2026-02-01&tags=calm%2Chome&source=web&hasPhotos=true');
    expect(entriesPath(filter, 'next-1')).toMatch(/&cursor=next-1$/);
    expect(countRefinements(filter)).toBe(5);
  });

  it('leaves out defaults: all sources, no photo filter', () => {
    expect(filterToParams({ ...emptyFilter, text: 'rain', source: 'all', hasPhotos: false }).toString()).toBe('q=rain');
  });

  it('reads the address back, ignoring what is malformed', () => {
    const params = new URLSearchParams('q=rain&from=yesterday&to=2026-02-01&tags=a,%20b,,a&source=fax&hasPhotos=yes');
    expect(filterFromParams(params)).toEqual({ text: 'rain', dateFrom: '', dateTo: '2026-02-01', tags: ['a', 'b'], source: 'all', hasPhotos: false });
  });

  it('filters entries with a voice note by source=voice', () => {
    const filter = { ...emptyFilter, source: 'voice' as const };
    expect(entriesPath(filter)).toBe('/api/entries?source=voice');
    expect(filterFromParams(filterToParams(filter))).toEqual(filter);
  });

  it('round-trips through the address', () => {
    const filter = { text: 'rain', dateFrom: '2026-01-01', dateTo: '', tags: ['x'], source: 'sms' as const, hasPhotos: true };
    expect(filterFromParams(filterToParams(filter))).toEqual(filter);
  });
});
