import { useState } from 'react';
import { JournalWorkspace } from '../../features/journal';
import { PageHead } from '../../seo/PageHead';
import { JournalHeader } from './JournalHeader';

export function JournalPage() {
  const [exportOpen, setExportOpen] = useState(false);
  return (
    <div className="min-h-dvh bg-paper">
      <PageHead title="Your journal · Jotline" robots="noindex" />
      <JournalHeader onExport={() => setExportOpen(true)} />
      <main className="mx-auto max-w-4xl px-4 py-8">
        <JournalWorkspace exportOpen={exportOpen} onExportOpenChange={setExportOpen} />
      </main>
    </div>
  );
}
