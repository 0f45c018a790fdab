import { Download } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import { ApiError } from '../../api/errors';
import { Button } from '../../components/ui/Button';
import { downloadExport } from '../journal/export-download';
import { PlanOptions } from './PlanOptions';

const copy = messages.billing;

/**
 * Spec 2 and 4: the screen shown instead of the journal when access has lapsed: 'Trial Expired',
 * the two plans, and the journal export, which stays open to everyone.
 */
export function TrialExpiredPanel() {
  const [exporting, setExporting] = useState(false);
  const exportJournal = async () => {
    setExporting(true);
    try {
      await downloadExport({ format: 'txt', from: '', to: '', photos: false });
    } catch (error) {
      // A used-up allowance says when to try again; anything else is a plain failure.
      toast.error(error instanceof ApiError && error.status === 429 ? error.message : copy.exportFailed);
    } finally {
      setExporting(false);
    }
  };
  return (
    <section aria-labelledby="trial-expired-heading" className="mx-auto w-full max-w-4xl px-5 py-10 sm:px-8 sm:py-14">
      <div className="text-center">
        <h1 id="trial-expired-heading" className="font-serif text-3xl font-semibold text-ink sm:text-4xl">
          {copy.trialExpiredTitle}
        </h1>
        <p className="mx-auto mt-3 max-w-xl text-stone-600">{copy.trialExpiredLead}</p>
      </div>
      <div className="mt-10">
        <PlanOptions />
      </div>
      <div className="mt-10 flex flex-col items-center gap-3 rounded-2xl border border-stone-200 bg-stone-50 p-6 text-center">
        <p className="text-sm text-stone-700">{copy.exportNote}</p>
        <Button variant="secondary" onClick={() => void exportJournal()} loading={exporting}>
          <Download aria-hidden="true" className="size-4" />
          {copy.exportJournal}
        </Button>
      </div>
    </section>
  );
}
