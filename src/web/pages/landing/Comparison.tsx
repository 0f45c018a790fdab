import { Check, X } from 'lucide-react';
import { SectionHeading } from '../../components/marketing/SectionHeading';

const oldWay = [
  'Find the notebook, find a pen, find the time',
  'Stare at a blank page wondering what to write',
  'Flip through years of pages to find one memory',
  'One lost bag or spilled coffee and it is gone',
];

const newWay = [
  'Text from the phone that is already in your hand',
  'Get a gentle daily prompt, only if you want one',
  'Search every entry by keyword, date or phrase',
  'Encrypted, kept safe, and yours to export any time',
];

/** Old-school journaling against the new way. */
export function Comparison() {
  return (
    <section id="how-it-works" aria-labelledby="how-it-works-heading" className="scroll-mt-20 bg-white py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-5 sm:px-8">
        <SectionHeading
          id="how-it-works-heading"
          eyebrow="How it works"
          title="Journaling, without the friction"
          lead="You already text every day. Now those few seconds can become a journal you will treasure."
        />
        <div className="mt-14 grid gap-6 md:grid-cols-2">
          <div className="rounded-3xl border border-stone-200 bg-stone-50 p-7 sm:p-9">
            <h3 className="font-serif text-2xl font-semibold text-stone-700">Old-school journaling</h3>
            <ul className="mt-6 space-y-4">
              {oldWay.map((item) => (
                <li key={item} className="flex gap-3 text-stone-600">
                  <span className="mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-stone-200 text-stone-500">
                    <X aria-hidden="true" className="size-3.5" strokeWidth={3} />
                  </span>
                  {item}
                </li>
              ))}
            </ul>
          </div>
          <div className="rounded-3xl bg-brand-800 p-7 text-white shadow-xl shadow-brand-900/20 sm:p-9">
            <h3 className="font-serif text-2xl font-semibold">The new way: just text</h3>
            <ul className="mt-6 space-y-4">
              {newWay.map((item) => (
                <li key={item} className="flex gap-3 text-brand-50">
                  <span className="mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-amber-300 text-brand-900">
                    <Check aria-hidden="true" className="size-3.5" strokeWidth={3} />
                  </span>
                  {item}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </section>
  );
}
