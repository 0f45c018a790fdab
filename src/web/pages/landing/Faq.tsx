import { ChevronDown } from 'lucide-react';
import { Accordion } from 'radix-ui';
import { SUPPORT_EMAIL } from '../../../shared/site';
import { SectionHeading } from '../../components/marketing/SectionHeading';
import { faqItems } from './faq';

/** One answer open at a time; opening it again closes it. */
export function Faq() {
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
        <Accordion.Root type="single" collapsible className="mt-12 divide-y divide-stone-200 border-y border-stone-200">
          {faqItems.map((item, index) => (
            <Accordion.Item key={item.question} value={`faq-${index}`}>
              <Accordion.Header className="m-0">
                <Accordion.Trigger className="group flex w-full items-center justify-between gap-6 py-5 text-left text-lg font-semibold text-ink hover:text-brand-800">
                  {item.question}
                  <ChevronDown
                    aria-hidden="true"
                    className="size-5 shrink-0 text-stone-500 transition-transform duration-200 group-data-[state=open]:rotate-180"
                  />
                </Accordion.Trigger>
              </Accordion.Header>
              <Accordion.Content className="pr-10 pb-6 leading-relaxed text-stone-600">{item.answer}</Accordion.Content>
            </Accordion.Item>
          ))}
        </Accordion.Root>
      </div>
    </section>
  );
}
