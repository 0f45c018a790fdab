import { Check } from 'lucide-react';
import { Link } from 'react-router';
import { messages } from '../../../shared/messages';
import { TRIAL_DAYS } from '../../../shared/limits';
import { formatUsd, PLAN_FEATURES, PLANS, YEARLY_PRICE_IF_MONTHLY_CENTS, YEARLY_SAVINGS_LABEL, type Plan } from '../../../shared/plans';
import { ctaClasses } from '../../components/marketing/cta';
import { SectionHeading } from '../../components/marketing/SectionHeading';
import { cn } from '../../components/ui/cn';

function PlanCard({ plan, featured, note, badge }: { plan: Plan; featured?: boolean; note: string; badge?: string }) {
  const headingId = `plan-${plan.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className={cn(
        'relative flex flex-col rounded-3xl bg-white p-8 sm:p-10',
        featured ? 'border-2 border-brand-600 shadow-xl shadow-brand-900/10' : 'border border-stone-200 shadow-sm',
      )}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={headingId} className="font-serif text-2xl font-semibold text-ink">
          {plan.name}
        </h3>
        {badge && <span className="rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900">{badge}</span>}
      </div>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="font-serif text-5xl font-semibold tracking-tight text-ink">{formatUsd(plan.priceCents)}</span>
        <span className="text-lg text-stone-500">/{plan.interval}</span>
      </p>
      <p className="mt-2 min-h-6 text-sm text-stone-600">{note}</p>
      <ul className="mt-8 flex-1 space-y-3">
        {PLAN_FEATURES.map((feature) => (
          <li key={feature} className="flex gap-3 text-stone-700">
            <Check aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-600" />
            {feature}
          </li>
        ))}
      </ul>
      <Link
        to="/sign-up"
        className={ctaClasses(featured ? 'primary' : 'secondary', 'lg', 'mt-10 w-full')}
        aria-describedby={headingId}
      >
        {messages.landing.trialCta}
      </Link>
      <p className="mt-3 text-center text-sm text-stone-500">{messages.landing.noCardRequired}</p>
    </article>
  );
}

export function Pricing() {
  return (
    <section id="pricing" aria-labelledby="pricing-heading" className="scroll-mt-20 py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-5 sm:px-8">
        <SectionHeading
          id="pricing-heading"
          eyebrow="Pricing"
          title="Simple, honest pricing"
          lead={`Every account starts with a ${TRIAL_DAYS}-day free trial. Both plans include everything.`}
        />
        <div className="mx-auto mt-14 grid max-w-4xl gap-6 md:grid-cols-2">
          <PlanCard plan={PLANS.monthly} note="Billed monthly. Cancel any time." />
          <PlanCard
            plan={PLANS.yearly}
            featured
            badge={YEARLY_SAVINGS_LABEL}
            note={`Compared with ${formatUsd(YEARLY_PRICE_IF_MONTHLY_CENTS)} if billed monthly.`}
          />
        </div>
      </div>
    </section>
  );
}
