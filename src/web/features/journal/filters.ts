import { ENTRY_SOURCES, splitTags, type EntrySource } from '../../../shared/journal-rules';

/** `voice`: entries that hold a recording, whatever their source. */
export type SourceFilter = 'all' | EntrySource | 'voice';

/** The spec's search filter (section 3) as the journal screen holds it. */
export interface SearchFilter {
  text: string;
  /** YYYY-MM-DD or ''. */
  dateFrom: string;
  dateTo: string;
  tags: string[];
  source: SourceFilter;
  hasPhotos: boolean;
}

export const emptyFilter: SearchFilter = { text: '', dateFrom: '', dateTo: '', tags: [], source: 'all', hasPhotos: false };

const isoDay = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '');
const isSource = (value: string | null): value is SourceFilter => value === 'all' || value === 'voice' || (ENTRY_SOURCES as readonly string[]).includes(value ?? '');

/**
 * The filter lives in the address (so a reload keeps it) under the API's own names:
 * q, from, to, tags (comma list), source, hasPhotos=true. Unknown or malformed values are ignored.
 */
export function filterFromParams(params: URLSearchParams): SearchFilter {
  const source = params.get('source');
  return {
    text: params.get('q') ?? '',
    dateFrom: isoDay(params.get('from')),
    dateTo: isoDay(params.get('to')),
    tags: splitTags(params.get('tags') ?? ''),
    source: isSource(source) ? source : 'all',
    hasPhotos: params.get('hasPhotos') === 'true',
  };
}

/** Only what differs from no filter, in a stable order; text is trimmed. */
export function filterToParams(filter: SearchFilter): URLSearchParams {
  const params = new URLSearchParams();
  const text = filter.text.trim();
  if (text) params.set('q', text);
  if (filter.dateFrom) params.set('from', filter.dateFrom);
  if (filter.dateTo) params.set('to', filter.dateTo);
  if (filter.tags.length > 0) params.set('tags', filter.tags.join(','));
  if (filter.source !== 'all') params.set('source', filter.source);
  if (filter.hasPhotos) params.set('hasPhotos', 'true');
  return params;
}

export function isFilterActive(filter: SearchFilter): boolean {
  return filterToParams(filter).toString() !== '';
}

/** The filters other than the text, for the Filters button's count. */
export function countRefinements(filter: SearchFilter): number {
  return [filter.dateFrom, filter.dateTo, filter.tags.length > 0, filter.source !== 'all', filter.hasPhotos].filter(Boolean).length;
}

/** GET /api/entries?… for one page of the filtered list. */
export function entriesPath(filter: SearchFilter, cursor?: string | null): string {
  const params = filterToParams(filter);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `/api/entries?${query}` : '/api/entries';
}
