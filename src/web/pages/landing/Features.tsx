import { BarChart3, BellRing, FileDown, MessageSquareText, Search, ShieldCheck } from 'lucide-react';
import { SectionHeading } from '../../components/marketing/SectionHeading';

export const features = [
  {
    icon: MessageSquareText,
    title: 'Text Your Journal',
    description: 'Send a text to your journal number and it is saved. Add photos by MMS. Several texts in a day become one daily entry.',
  },
  {
    icon: ShieldCheck,
    title: 'Private. Encrypted. Secure.',
    description: 'Entries are encrypted at rest and in transit, and only you can read them. We never sell your data, and there are no ads.',
  },
  {
    icon: FileDown,
    title: 'Export Anytime',
    description: 'Download your journal as a PDF or plain text, all of it or a range of dates, whenever you like. It is yours.',
  },
  {
    icon: BarChart3,
    title: 'Insights & Analytics',
    description: 'Watch your habit grow: your current streak, the days you have journaled, words written and photos saved.',
  },
  {
    icon: Search,
    title: 'Search that works',
    description: 'Find any memory in seconds by keyword, date or phrase, or show only the entries with photos.',
  },
  {
    icon: BellRing,
    title: 'Daily Reminders',
    description: 'Get a friendly prompt by text at the time you choose. Optional, and easy to turn off in settings.',
  },
] as const;

export function Features() {
  return (
    <section id="features" aria-labelledby="features-heading" className="scroll-mt-20 py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-5 sm:px-8">
        <SectionHeading
          id="features-heading"
          eyebrow="Features"
          title="Everything your journal needs"
          lead="Simple enough to use every day. Private enough to be completely honest."
        />
        <ul className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {features.map(({ icon: Icon, title, description }) => (
            <li key={title} className="flex gap-4 rounded-3xl border border-stone-200 bg-white p-6 shadow-sm sm:block sm:p-7">
              <span className="flex size-11 shrink-0 items-center justify-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-100 sm:size-12">
                <Icon aria-hidden="true" className="size-6" />
              </span>
              <div>
                <h3 className="text-lg font-semibold text-ink sm:mt-5">{title}</h3>
                <p className="mt-1.5 leading-relaxed text-stone-600 sm:mt-2">{description}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
