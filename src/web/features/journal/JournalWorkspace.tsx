import { Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { messages } from '../../../shared/messages';
import { preloadOnFirstInteraction } from '../../components/ui/lazy-dialog';
import { AccountBanners } from './AccountBanners';
import { OptOutBanner, SubscriptionBanner } from './Banners';
import { journalCopy } from './copy';
import { EntryList } from './EntryList';
import { ExportModal, journalDialogs, NewEntryModal } from './dialogs';
import { emptyFilter } from './filters';
import { OnThisDay } from './OnThisDay';
import { useStats } from './queries';
import { SearchBar } from './SearchBar';
import { StatsRow, StatsRowPlaceholder } from './StatsRow';
import { useCheckoutReturn } from './useCheckoutReturn';
import { useLiveJournal } from './useLiveJournal';
import { useNewEntryShortcut } from './useNewEntryShortcut';
import { useSearchFilter } from './useSearchFilter';

export interface JournalWorkspaceProps {
  /** The export modal's state, when the page opens it (the account menu's Export). */
  exportOpen?: boolean;
  onExportOpenChange?: (open: boolean) => void;
}

/**
 * Everything on /journal below the header (spec 2, in order): opt-out banner, trial banner,
 * statistics, search, the entries, the add button, and the new-entry and export modals.
 * Export is controlled by the page when it passes exportOpen; otherwise it keeps its own state.
 */
export function JournalWorkspace({ exportOpen, onExportOpenChange }: JournalWorkspaceProps) {
  const [filter, setFilter] = useSearchFilter();
  const [newEntryOpen, setNewEntryOpen] = useState(false);
  const [ownExportOpen, setOwnExportOpen] = useState(false);
  const stats = useStats();
  useLiveJournal();
  useNewEntryShortcut(() => setNewEntryOpen(true));
  useCheckoutReturn();
  // The dialogs' code comes once the reader starts using the page, before they are likely to open one.
  useEffect(() => preloadOnFirstInteraction(journalDialogs), []);

  const exportIsOpen = exportOpen ?? ownExportOpen;
  const setExportOpen = (open: boolean) => {
    setOwnExportOpen(open);
    onExportOpenChange?.(open);
  };

  return (
    <div className="space-y-6 pb-8 sm:pb-24">
      {/*
        First in the tab order, before the (long) list. From the small breakpoint up it floats at the
        bottom right; on phones it sits at the top as a full-width button, so it never covers an entry.
      */}
      <button
        type="button"
        aria-label={journalCopy.newEntry}
        aria-keyshortcuts="n"
        title={`${journalCopy.newEntry} (${messages.journalPage.newEntryShortcut})`}
        onClick={() => setNewEntryOpen(true)}
        className="flex h-11 w-full items-center justify-center gap-2 rounded-xl bg-brand-700 font-medium text-white shadow-sm transition hover:bg-brand-800 sm:fixed sm:right-8 sm:bottom-8 sm:z-30 sm:size-14 sm:rounded-full sm:shadow-lg sm:shadow-brand-900/25 sm:hover:shadow-xl"
      >
        <Plus aria-hidden="true" className="size-5 sm:size-6" />
        <span aria-hidden="true" className="sm:hidden">
          {journalCopy.newEntry}
        </span>
      </button>
      <AccountBanners />
      <OptOutBanner />
      <SubscriptionBanner />
      {stats.isPending ? <StatsRowPlaceholder /> : stats.data && stats.data.total_days > 0 && <StatsRow stats={stats.data} />}
      <OnThisDay />
      <SearchBar filter={filter} onFilterChange={setFilter} />
      <EntryList filter={filter} onCreate={() => setNewEntryOpen(true)} onClearFilters={() => setFilter(emptyFilter)} />

      <NewEntryModal open={newEntryOpen} onOpenChange={setNewEntryOpen} />
      <ExportModal open={exportIsOpen} onOpenChange={setExportOpen} />
    </div>
  );
}
