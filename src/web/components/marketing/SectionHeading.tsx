import type { ReactNode } from 'react';
import { cn } from '../ui/cn';

/** The eyebrow, serif heading and lead paragraph that open each landing section. */
export function SectionHeading(props: { id: string; eyebrow: string; title: ReactNode; lead?: ReactNode; className?: string }) {
  return (
    <div className={cn('mx-auto max-w-2xl text-center', props.className)}>
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{props.eyebrow}</p>
      <h2 id={props.id} className="mt-3 font-serif text-3xl font-semibold tracking-tight text-balance text-ink sm:text-4xl lg:text-5xl">
        {props.title}
      </h2>
      {props.lead && <p className="mt-4 text-lg leading-relaxed text-pretty text-stone-600">{props.lead}</p>}
    </div>
  );
}
