import { ArrowLeft, CircleAlert } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { ExportModal } from '../../features/journal';
import { useLiveJournal } from '../../features/journal/useLiveJournal';
import { VaultCard } from '../../features/vault/VaultCard';
import { PageHead } from '../../seo/PageHead';
import { JournalHeader } from '../journal/JournalHeader';
import { BillingCard } from './BillingCard';
import { DeleteAccountCard } from './DeleteAccountCard';
import { ImportCard } from './ImportCard';
import { JournalNumberSection } from './JournalNumberSection';
import { settingsCopy } from './copy';
import { ReminderSettingsForm } from './ReminderSettingsForm';
import { SecurityCard } from './SecurityCard';
import { TextPauseNotice } from './TextPauseNotice';
import { useSettingsProfile } from './settings-queries';

/** /settings: the plan and billing, and the texts the service sends (spec 2). */
export function SettingsPage() {
  const [exportOpen, setExportOpen] = useState(false);
  // PAUSE, STOP or START texted while settings are open show here at once (profile.updated).
  useLiveJournal();
  return (
    <div className="min-h-dvh bg-paper">
      <PageHead title="Settings · Jotline" robots="noindex" />
      <JournalHeader onExport={() => setExportOpen(true)} />
      <main className="mx-auto max-w-2xl px-4 pt-6 pb-16 sm:pt-8">
        <Link
          to="/journal"
          className="-ml-2 inline-flex items-center gap-1.5 rounded-lg px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50 hover:text-brand-800"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          {settingsCopy.backToJournal}
        </Link>
        <h1 className="mt-3 font-serif text-3xl font-semibold tracking-tight text-ink sm:text-4xl">Settings</h1>
        <p className="mt-1.5 text-stone-600">Your plan, and the texts we send to your phone.</p>
        <div className="mt-8">
          <SettingsContent />
        </div>
      </main>
      <ExportModal open={exportOpen} onOpenChange={setExportOpen} />
    </div>
  );
}

function SettingsContent() {
  const profile = useSettingsProfile();
  if (profile.isPending) {
    return (
      <div className="flex flex-col items-center gap-3 py-16 text-brand-700">
        <Spinner className="size-7" label={settingsCopy.loading} />
        <p className="text-sm text-stone-500">{settingsCopy.loading}</p>
      </div>
    );
  }
  if (!profile.data) {
    return (
      <div role="alert" className="flex flex-col items-center rounded-2xl border border-red-200 bg-red-50/60 px-6 py-10 text-center">
        <CircleAlert aria-hidden="true" className="size-8 text-red-600" />
        <p className="mt-3 font-serif text-xl font-semibold text-ink">{settingsCopy.loadErrorTitle}</p>
        <p className="mt-1 text-sm text-stone-600">{settingsCopy.loadError}</p>
        <Button variant="secondary" className="mt-5" onClick={() => void profile.refetch()} loading={profile.isFetching}>
          {settingsCopy.retry}
        </Button>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <TextPauseNotice profile={profile.data} />
      <JournalNumberSection />
      <BillingCard />
      <ReminderSettingsForm profile={profile.data} />
      <ImportCard />
      <VaultCard />
      <SecurityCard />
      <DeleteAccountCard />
    </div>
  );
}
