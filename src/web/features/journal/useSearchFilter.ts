import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { filterFromParams, filterToParams, type SearchFilter } from './filters';

/** The search filter kept in the address bar, so reloading or sharing the page keeps it. */
export function useSearchFilter(): [SearchFilter, (next: SearchFilter) => void] {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the string is the identity of the params
  const filter = useMemo(() => filterFromParams(params), [key]);
  const setFilter = useCallback((next: SearchFilter) => setParams(filterToParams(next), { replace: true }), [setParams]);
  return [filter, setFilter];
}

/** Typing debounce for search fields (ms). */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * A text field whose value is committed a moment after typing stops. `committed` is the value
 * as stored (normalised); when it changes from elsewhere (back button, clear), the field follows.
 */
export function useDebouncedDraft(committed: string, normalize: (draft: string) => string, commit: (value: string) => void) {
  const [draft, setDraft] = useState(committed);
  const [seen, setSeen] = useState(committed);
  if (committed !== seen) {
    setSeen(committed);
    if (normalize(draft) !== committed) setDraft(committed);
  }
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });
  useEffect(() => {
    const value = normalize(draft);
    if (value === committed) return;
    const timer = setTimeout(() => commitRef.current(value), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, committed, normalize]);
  return [draft, setDraft] as const;
}
