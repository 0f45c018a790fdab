import { useState } from 'react';
import { TrialExpiredPanel } from '../../features/billing';
import { JournalWorkspace } from '../../features/journal';
import { useSubscription } from '../../features/journal/queries';
import { subscriptionBanner } from '../../features/journal/subscription-banner';
import { PageHead } from '../../seo/PageHead';
import { JournalHeader } from './JournalHeader';

export function JournalPage() {
  const [exportOpen, setExportOpen] = useState(false);
  const subscription = useSubscription();
  // Spec 4: without a running trial or subscription the journal gives way to the upgrade offer
  // (the export stays open to everyone).
  const lapsed = !!subscription.data && subscriptionBanner(subscription.data).kind === 'expired';
  return (
    <div className="min-h-dvh bg-paper">
      <PageHead title="Your journal · Jotline" robots="noindex" />
      <JournalHeader onExport={() => setExportOpen(true)} />
      {lapsed ? (
        <TrialExpiredPanel />
      ) : (
        <main className="mx-auto max-w-4xl px-4 py-8">
          <JournalWorkspace exportOpen={exportOpen} onExportOpenChange={setExportOpen} />
        </main>
      )}
    </div>
  );
}
