import { BookOpen, CircleAlert, PenLine, SearchX } from 'lucide-react';
import { useDeferredValue, useEffect, useMemo, useRef } from 'react';
import type { JournalEntry } from '../../../shared/journal';
import { messages } from '../../../shared/messages';
import { searchTerms } from '../../../shared/search-text';
import { formatUsPhone } from '../../../shared/site';
import { ApiError } from '../../api/errors';
import { Button } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { useAuth } from '../auth/auth-context';
import { TrialExpiredPanel } from '../billing/TrialExpiredPanel';
import { JournalNumberLinks } from '../journal-number';
import { useAccount } from './AccountBanners';
import { journalCopy } from './copy';
import { EntryCard } from './EntryCard';
import { isFilterActive, type SearchFilter } from './filters';
import { useEntries, useProfile } from './queries';

/** The entries matching the filter, newest first, with loading, error and empty states and paging. */
export function EntryList({ filter, onCreate, onClearFilters }: { filter: SearchFilter; onCreate: () => void; onClearFilters: () => void }) {
  // Reversed dates match nothing: say so rather than ask (as Export does).
  const reversed = filter.dateFrom !== '' && filter.dateTo !== '' && filter.dateFrom > filter.dateTo;
  const entries = useEntries(filter, { enabled: !reversed });
  // The search's words, marked in the cards (one array per search, so the memoised cards keep).
  const terms = useMemo(() => searchTerms(filter.text), [filter.text]);
  // Times are told in the profile's zone: the cards wait for it (asked for beside the entries), so
  // they are built once, not again with every time changed as it lands.
  const profile = useProfile();
  const timeZone = profile.data?.timezone;
  // Not through retries, though: a profile that failed once leaves the times in the browser's zone.
  const awaitingZone = profile.isPending && profile.failureCount === 0;
  // The cards are built in the background, between frames, not in one long task as the answer lands
  // (on a phone that task held the first screen's input for a fifth of a second and more). Null, not
  // undefined, as the first value: React defers a component's first render only when it is given one.
  const pages = useDeferredValue((!awaitingZone && entries.data?.pages) || null, null);
  // Keyed by id: an entry seen on two pages (the list changed between them) is shown once.
  const list = [...new Map((pages ?? []).flatMap((page) => page.entries).map((e) => [e.id, e])).values()];

  if (reversed) return <FilterProblem message={journalCopy.reversedDates} onClear={onClearFilters} />;
  // A filter the server cannot read (a day that does not exist, from the address bar): its words, not "check your connection".
  if (entries.error instanceof ApiError && entries.error.status === 400 && list.length === 0) {
    return <FilterProblem message={entries.error.message} onClear={onClearFilters} />;
  }
  if (entries.isPending || (entries.data && !pages)) {
    return (
      <div className="flex flex-col items-center gap-3 py-16 text-brand-700">
        <Spinner className="size-7" label={journalCopy.loading} />
        <p className="text-sm text-stone-500">{journalCopy.loading}</p>
      </div>
    );
  }
  if (entries.error instanceof ApiError && entries.error.status === 402) {
    // Access lapsed since the subscription status was read: offer the upgrade, not an error.
    return <TrialExpiredPanel />;
  }
  if (entries.isError && list.length === 0) {
    return (
      <div role="alert" className="flex flex-col items-center rounded-2xl border border-red-200 bg-red-50/60 px-6 py-10 text-center">
        <CircleAlert aria-hidden="true" className="size-8 text-red-600" />
        <p className="mt-3 font-serif text-xl font-semibold text-ink">{journalCopy.loadErrorTitle}</p>
        <p className="mt-1 text-sm text-stone-600">{journalCopy.loadError}</p>
        <Button variant="secondary" className="mt-5" onClick={() => void entries.refetch()} loading={entries.isFetching}>
          {journalCopy.retry}
        </Button>
      </div>
    );
  }
  if (list.length === 0) {
    return isFilterActive(filter) ? <NoMatches onClear={onClearFilters} /> : <WelcomeEmpty onCreate={onCreate} />;
  }

  return (
    <section aria-label="Journal entries" aria-busy={entries.isFetching || undefined}>
      <ol className="space-y-5">
        <Cards entries={list} timeZone={timeZone} terms={terms} />
      </ol>
      {entries.hasNextPage && (
        <LoadMore loading={entries.isFetchingNextPage} onLoad={() => void entries.fetchNextPage()} />
      )}
      {entries.isFetchNextPageError && <p role="alert" className="mt-3 text-center text-sm text-red-700">{journalCopy.loadErrorTitle}</p>}
    </section>
  );
}

/** About what a phone's first screen shows: these cards come first, the rest in a commit of their own. */
const FIRST_CARDS = 3;

function Cards({ entries, timeZone, terms }: { entries: JournalEntry[]; timeZone: string | undefined; terms: readonly string[] }) {
  // Built after the first ones are on screen, so the first paint does not wait for every card (and a
  // page added by Load more is built in the background too).
  const count = useDeferredValue(entries.length, Math.min(entries.length, FIRST_CARDS));
  return entries.slice(0, count).map((entry) => (
    // Cards below the screen are laid out and painted when scrolled near, not on the first screen.
    <li key={entry.id} className="[content-visibility:auto] [contain-intrinsic-size:auto_320px]">
      <EntryCard entry={entry} timeZone={timeZone} terms={terms} />
    </li>
  ));
}

/** 'Load more' for keyboards and clicks; it also loads by itself as it scrolls into view. */
function LoadMore({ loading, onLoad }: { loading: boolean; onLoad: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  const onLoadRef = useRef(onLoad);
  useEffect(() => {
    onLoadRef.current = onLoad;
  });
  useEffect(() => {
    const target = button.current;
    if (!target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((seen) => seen.some((e) => e.isIntersecting) && onLoadRef.current(), { rootMargin: '400px' });
    observer.observe(target);
    return () => observer.disconnect();
  }, []);
  return (
    <div className="mt-6 flex justify-center">
      <Button ref={button} variant="secondary" onClick={onLoad} loading={loading}>
        {loading ? 'Loading...' : journalCopy.loadMore}
      </Button>
    </div>
  );
}

function WelcomeEmpty({ onCreate }: { onCreate: () => void }) {
  // The account as the server has it now (a YES may have landed since sign-in), else the session's.
  const account = useAccount().data;
  const session = useAuth().user;
  const user = account ?? session;
  return (
    <div className="overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm">
      <div className="bg-linear-to-br from-brand-700 to-brand-900 px-6 py-9 text-white sm:px-10">
        <BookOpen aria-hidden="true" className="size-8 text-brand-200" />
        <h2 className="mt-4 font-serif text-3xl font-semibold">Welcome to your journal</h2>
        <p className="mt-2 max-w-prose leading-7 text-brand-100">
          Text your journal number to write your first entry, or write one here. Everything you send on the same day becomes that
          day's entry, and photos are welcome too.
        </p>
        <p className="mt-5 text-xs font-semibold tracking-wide text-brand-200 uppercase">{messages.journalNumber.label}</p>
        <JournalNumberLinks tone="brand" className="mt-2" />
      </div>
      <div className="flex flex-col gap-4 px-6 py-6 sm:flex-row sm:items-center sm:justify-between sm:px-10">
        <p className="text-sm text-stone-600">
          {/* Only a verified phone's texts are journaled: never promise it before. */}
          {user?.phone && user.phone_verified ? messages.accountState.textsLandHere(formatUsPhone(user.phone)) : 'Your entries will appear here.'}
        </p>
        <Button size="lg" onClick={onCreate}>
          <PenLine aria-hidden="true" className="size-4" />
          {journalCopy.createFirst}
        </Button>
      </div>
    </div>
  );
}

function FilterProblem({ message, onClear }: { message: string; onClear: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center rounded-2xl border border-dashed border-amber-300 bg-amber-50/60 px-6 py-12 text-center">
      <CircleAlert aria-hidden="true" className="size-8 text-amber-700" />
      <p className="mt-3 font-serif text-xl font-semibold text-ink">{message}</p>
      <Button variant="secondary" className="mt-5" onClick={onClear}>
        Clear filters
      </Button>
    </div>
  );
}

function NoMatches({ onClear }: { onClear: () => void }) {
  return (
    <div className="flex flex-col items-center rounded-2xl border border-dashed border-stone-300 px-6 py-12 text-center">
      <SearchX aria-hidden="true" className="size-8 text-stone-400" />
      <p className="mt-3 font-serif text-xl font-semibold text-ink">{journalCopy.noMatchesTitle}</p>
      <p className="mt-1 text-sm text-stone-600">{journalCopy.noMatches}</p>
      <Button variant="secondary" className="mt-5" onClick={onClear}>
        Clear filters
      </Button>
    </div>
  );
}
