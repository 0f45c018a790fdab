import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Card } from '../../components/ui/Card';
import { Wordmark } from '../../components/ui/Wordmark';

/** The frame of every account page: the wordmark linking home above a centred card. */
export function AuthLayout({ title, description, children, footer }: { title: string; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="relative flex min-h-dvh flex-col items-center bg-paper px-4 py-10 sm:justify-center">
      <div aria-hidden="true" className="pointer-events-none absolute inset-x-0 top-0 h-72 bg-linear-to-b from-brand-100/60 to-transparent" />
      <Link to="/" aria-label="Jotline home" className="relative rounded-lg">
        <Wordmark />
      </Link>
      <main className="relative mt-8 w-full max-w-md">
        <Card className="p-6 sm:p-8">
          <h1 className="font-serif text-2xl font-semibold text-ink">{title}</h1>
          {description && <div className="mt-1.5 text-sm text-stone-600">{description}</div>}
          <div className="mt-6">{children}</div>
        </Card>
        {footer && <div className="mt-6 text-center text-sm text-stone-600">{footer}</div>}
      </main>
    </div>
  );
}

/** A text link in the brand colour, for the small print under forms. */
export const textLinkClasses = 'font-medium text-brand-700 underline-offset-4 hover:underline';
