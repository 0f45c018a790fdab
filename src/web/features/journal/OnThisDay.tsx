import { useQuery, useQueryClient } from '@tanstack/react-query';
import { History } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import type { JournalEntry } from '../../../shared/journal';
import { messages } from '../../../shared/messages';
import { ApiError } from '../../api/errors';
import { yearIn } from './dates';
import { EntryCard } from './EntryCard';
import { Modal } from './dialogs';
import { fetchOnThisDay, type ProfileSummary } from './journal-api';
import { journalKeys } from './queries';

const copy = messages.onThisDay;

/** GET /api/on-this-day: the user's entries from today's month and day in earlier years, newest first. */
function useOnThisDay() {
  return useQuery({
    queryKey: journalKeys.onThisDay,
    queryFn: ({ signal }) => fetchOnThisDay(signal),
    // The day changes at most once a day; lists are refreshed by the live journal.
    staleTime: 5 * 60 * 1000,
    // A card that adds to the page: an answer that will not change (4xx, such as no access) is not retried.
    retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
  });
}

function preview(entry: JournalEntry): string {
  const text = entry.title || entry.content.split('\n').find((line) => line.trim() !== '') || copy.untitled;
  return text.length > 120 ? `${text.slice(0, 117).trimEnd()}...` : text;
}

/** Above the journal's list when there are any: what the user wrote on this day in earlier years, each opening the entry. */
export function OnThisDay() {
  const headingId = useId();
  const entries = useOnThisDay().data;
  const queryClient = useQueryClient();
  const [openId, setOpenId] = useState<string | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  if (!entries || entries.length === 0) return null;
  // The current year where the journal's days are counted (the profile's time zone). Read, not
  // watched: an observer here would change how the profile query refetches.
  const timeZone = queryClient.getQueryData<ProfileSummary | null>(journalKeys.profile)?.timezone;
  const year = yearIn(timeZone);
  const agoLabel = (entry: JournalEntry) => copy.yearsAgo(Math.max(1, year - Number(entry.entry_date.slice(0, 4))));
  // Edited or deleted in the dialog: it shows the entry as it is now, and closes once it is gone.
  const open = entries.find((e) => e.id === openId) ?? null;
  const close = () => {
    setOpenId(null);
    // Back to the line that opened it, once the dialog has let go of focus.
    requestAnimationFrame(() => opener.current?.focus());
  };

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-amber-200/80 bg-amber-50/60 px-5 py-4 shadow-sm wrap-anywhere sm:px-7">
      <h2 id={headingId} className="flex items-center gap-2 font-serif text-lg font-semibold text-ink">
        <History aria-hidden="true" className="size-5 text-amber-700" />
        {copy.title}
      </h2>
      <ul className="mt-2 divide-y divide-amber-200/70">
        {entries.map((entry) => {
          const years = agoLabel(entry);
          return (
            <li key={entry.id}>
              <button
                type="button"
                onClick={(event) => {
                  opener.current = event.currentTarget;
                  setOpenId(entry.id);
                }}
                className="-mx-2 flex w-[calc(100%+1rem)] flex-col items-start rounded-lg px-2 py-2.5 text-left transition-colors hover:bg-amber-100/70"
              >
                <span className="text-xs font-semibold tracking-wide text-amber-800 uppercase">{years}</span>
                <span className="mt-0.5 text-sm text-ink">{preview(entry)}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <Modal open={open !== null} onOpenChange={(isOpen) => !isOpen && close()} title={open ? `${copy.title}, ${agoLabel(open)}` : copy.title} className="max-w-2xl">
        {open && (
          <div className="mt-4">
            <EntryCard entry={open} timeZone={timeZone} />
          </div>
        )}
      </Modal>
    </section>
  );
}
