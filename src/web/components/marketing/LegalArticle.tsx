import type { ReactNode } from 'react';

/** A legal or help page: a title, an optional effective date, then sections. */
export function LegalArticle(props: { eyebrow: string; title: string; effective?: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <article className="mx-auto max-w-3xl px-5 py-12 sm:px-8 sm:py-20">
      <header className="border-b border-stone-200 pb-8">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{props.eyebrow}</p>
        <h1 className="mt-3 font-serif text-4xl font-semibold tracking-tight text-ink sm:text-5xl">{props.title}</h1>
        {props.effective && <p className="mt-4 text-sm text-stone-500">Effective {props.effective}</p>}
        {props.intro && <div className="mt-6 text-lg leading-relaxed text-stone-700">{props.intro}</div>}
      </header>
      <div className="divide-y divide-stone-200">{props.children}</div>
    </article>
  );
}

/** One titled section of a LegalArticle; paragraphs, lists and links inside are styled for reading. */
export function LegalSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="py-8">
      <h2 id={id} className="font-serif text-2xl font-semibold text-ink">
        {title}
      </h2>
      <div className="mt-4 space-y-4 leading-relaxed text-stone-700 [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-4 [&_a:hover]:text-brand-900 [&_li]:pl-1 [&_strong]:text-ink [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-5">
        {children}
      </div>
    </section>
  );
}
