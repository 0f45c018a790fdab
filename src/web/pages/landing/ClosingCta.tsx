import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { TRIAL_DAYS } from '../../../shared/limits';
import { messages } from '../../../shared/messages';
import { ctaClasses } from '../../components/marketing/cta';

export function ClosingCta() {
  return (
    <section aria-labelledby="closing-heading" className="relative overflow-hidden py-20 sm:py-28">
      <div aria-hidden="true" className="absolute inset-0 -z-10 bg-gradient-to-b from-paper via-amber-50/70 to-paper" />
      <div className="mx-auto max-w-3xl px-5 text-center sm:px-8">
        <h2 id="closing-heading" className="font-serif text-4xl font-semibold tracking-tight text-balance text-ink sm:text-5xl">
          Your story is worth writing down
        </h2>
        <p className="mx-auto mt-5 max-w-xl text-lg text-pretty text-stone-600">
          One text tonight is all it takes. Try every feature free for {TRIAL_DAYS} days, then decide.
        </p>
        <Link
          to="/sign-up"
          className={ctaClasses('primary', 'xl', 'mt-9 w-full sm:w-auto')}
        >
          {messages.landing.closingCta}
          <ArrowRight aria-hidden="true" className="size-5" />
        </Link>
        <p className="mt-4 text-sm text-stone-500">
          {TRIAL_DAYS}-day free trial · {messages.landing.noCardRequired}
        </p>
      </div>
    </section>
  );
}
