import { useDeferredValue, useState } from 'react';
import { messages } from '../../../shared/messages';
import { Spinner } from '../../components/ui/Spinner';
import { TrialExpiredPanel } from '../../features/billing';
import { JournalWorkspace } from '../../features/journal';
import { journalCopy } from '../../features/journal/copy';
import { ExportModal } from '../../features/journal/dialogs';
import { usePrefetchJournal, useSubscription } from '../../features/journal/queries';
import { useSearchFilter } from '../../features/journal/useSearchFilter';
import { subscriptionBanner } from '../../features/journal/subscription-banner';
import { useVaultJournalPage } from '../../features/journal/vault-mode';
import { VaultLockedPanel } from '../../features/journal/VaultLockedPanel';
import { PageHead } from '../../seo/PageHead';
import { JournalHeader } from './JournalHeader';

export function JournalPage() {
  const [exportOpen, setExportOpen] = useState(false);
  const subscription = useSubscription();
  // A Vault journal whose keys are not in this tab shows its unlock screen instead.
  const vault = useVaultJournalPage();
  usePrefetchJournal(useSearchFilter()[0]);
  // Spec 4: without a running trial or subscription the journal gives way to the upgrade offer
  // (the export stays open to everyone). The journal shows once the answer is in, so a lapsed account
  // never sees it appear and vanish.
  const lapsed = !!subscription.data && subscriptionBanner(subscription.data).kind === 'expired';
  // Once it is in, the journal is built in the background, between frames, rather than in one task.
  const waiting = useDeferredValue(subscription.isPending, true);
  return (
    <div className="min-h-dvh bg-paper">
      <PageHead title="Your journal · Jotline" robots="noindex" />
      <JournalHeader onExport={() => setExportOpen(true)} />
      {lapsed ? (
        <TrialExpiredPanel />
      ) : (
        <main className="mx-auto max-w-4xl px-4 pt-6 pb-8 sm:pt-8">
          <div className="mb-5 flex items-baseline justify-between gap-4">
            <h1 className="font-serif text-2xl font-semibold tracking-tight text-ink sm:text-3xl">{messages.journalPage.heading}</h1>
            {/* N writes only where a new entry can be written: not behind a locked vault. */}
            <p className={vault === 'locked' ? 'hidden' : 'hidden text-xs text-stone-500 sm:block'}>
              {messages.journalPage.shortcutBefore}{' '}
              <kbd className="rounded border border-stone-300 bg-white px-1.5 py-0.5 font-sans text-[0.6875rem] font-semibold text-stone-700">
                {messages.journalPage.newEntryShortcut}
              </kbd>{' '}
              {messages.journalPage.shortcutAfter}
            </p>
          </div>
          {waiting ? (
            <div className="flex flex-col items-center gap-3 py-16 text-brand-700">
              <Spinner className="size-7" label={journalCopy.loading} />
              <p className="text-sm text-stone-500">{journalCopy.loading}</p>
            </div>
          ) : vault === 'locked' ? (
            <>
              <VaultLockedPanel />
              {/* The account menu's Export: it offers the unlock, then the export. */}
              <ExportModal open={exportOpen} onOpenChange={setExportOpen} />
            </>
          ) : (
            <JournalWorkspace exportOpen={exportOpen} onExportOpenChange={setExportOpen} />
          )}
        </main>
      )}
    </div>
  );
}
