import { BellOff } from 'lucide-react';
import { JOURNAL_NUMBER_DISPLAY, JOURNAL_NUMBER_SMS_HREF } from '../../components/marketing/journalNumber';
import { settingsCopy } from './copy';

/** Spec 2 and 4: a user who texted STOP gets no automated texts until they text START. */
export function OptedOutNotice() {
  return (
    <div role="status" className="mx-5 mt-4 flex gap-3 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3.5 text-sm text-amber-900 sm:mx-7">
      <BellOff aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700" />
      <div>
        <p className="font-semibold">{settingsCopy.optedOutTitle}</p>
        <p className="mt-0.5 leading-6 text-amber-800">{settingsCopy.optedOut}</p>
        <p className="mt-1 text-amber-800">
          Your journal number:{' '}
          <a href={JOURNAL_NUMBER_SMS_HREF} className="font-semibold whitespace-nowrap underline underline-offset-2 hover:text-amber-950">
            {JOURNAL_NUMBER_DISPLAY}
          </a>
        </p>
      </div>
    </div>
  );
}
