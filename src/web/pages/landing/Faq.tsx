import { ChevronDown } from 'lucide-react';
import { useRef, type SyntheticEvent } from 'react';
import { SUPPORT_EMAIL } from '../../../shared/site';
import { SectionHeading } from '../../components/marketing/SectionHeading';
import { faqItems } from './faq';

/**
 * One answer open at a time; opening it again closes it. Native <details>, so the answers open without
 * JavaScript (the pre-rendered page) and by keyboard; `name` makes the browser close the others, and the
 * toggle handler does the same where `name` is not supported.
 */
export function Faq() {
  const list = useRef<HTMLDivElement>(null);
  const closeOthers = (event: SyntheticEvent<HTMLDetailsElement>) => {
    const opened = event.currentTarget;
    if (!opened.open) return;
    for (const other of list.current?.querySelectorAll('details[open]') ?? []) {
      if (other !== opened) (other as HTMLDetailsElement).open = false;
    }
  };
  return (
    <section id="faq" aria-labelledby="faq-heading" className="scroll-mt-20 bg-white py-20 sm:py-28">
      <div className="mx-auto max-w-3xl px-5 sm:px-8">
        <SectionHeading
          id="faq-heading"
          eyebrow="FAQ"
          title="Questions, answered"
          lead={
            <>
              Something else on your mind? Write to{' '}
              <a href={`mailto:${SUPPORT_EMAIL}`} className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-900">
                {SUPPORT_EMAIL}
              </a>
              .
            </>
          }
        />
        <div ref={list} className="mt-12 divide-y divide-stone-200 border-y border-stone-200">
          {faqItems.map((item) => (
            <details key={item.question} name="faq" className="group" onToggle={closeOthers}>
              <summary className="flex w-full cursor-pointer list-none items-center justify-between gap-6 py-5 text-left text-lg font-semibold text-ink hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 [&::-webkit-details-marker]:hidden">
                <span>{item.question}</span>
                <ChevronDown aria-hidden="true" className="size-5 shrink-0 text-stone-500 transition-transform duration-200 group-open:rotate-180" />
              </summary>
              <div className="pr-10 pb-6 leading-relaxed text-stone-600">{item.answer}</div>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
