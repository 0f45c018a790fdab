import { MessageSquareText } from 'lucide-react';
import { TRIAL_DAYS } from '../../../shared/limits';
import { ctaClasses } from '../../components/marketing/cta';
import { JOURNAL_NUMBER_DISPLAY, JOURNAL_NUMBER_SMS_HREF } from '../../components/marketing/journalNumber';

/** Invites visitors to text the journal number; on a phone the button opens the messaging app. */
export function TextBanner() {
  return (
    <section aria-labelledby="text-us-heading" className="px-5 sm:px-8">
      <div className="relative mx-auto max-w-6xl overflow-hidden rounded-[2rem] bg-gradient-to-br from-brand-700 via-brand-800 to-brand-900 px-6 py-12 text-center text-white shadow-xl shadow-brand-900/20 sm:px-12 sm:py-16">
        <div aria-hidden="true" className="absolute -top-24 -right-24 size-72 rounded-full bg-brand-500/30 blur-3xl" />
        <div className="relative">
          <p className="text-sm font-semibold tracking-wide text-amber-200 uppercase">Try it right now</p>
          <h2 id="text-us-heading" className="mx-auto mt-3 max-w-3xl font-serif text-3xl font-semibold text-balance sm:text-4xl lg:text-5xl">
            Text <span className="whitespace-nowrap text-amber-200">{JOURNAL_NUMBER_DISPLAY}</span> to start your free trial
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-pretty text-brand-100">
            Send any message to your journal number and we'll text you back a link to set up your journal. {TRIAL_DAYS} days free, no
            credit card.
          </p>
          <a
            href={JOURNAL_NUMBER_SMS_HREF}
            className={ctaClasses('light', 'xl', 'mt-8')}
          >
            <MessageSquareText aria-hidden="true" className="size-5" />
            Text {JOURNAL_NUMBER_DISPLAY}
          </a>
          <p className="mt-5 text-xs text-brand-200">Msg &amp; data rates may apply. Reply STOP to opt out, HELP for help.</p>
        </div>
      </div>
    </section>
  );
}
