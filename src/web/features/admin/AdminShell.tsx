import { ArrowLeft, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../../components/ui/cn';
import { Wordmark } from '../../components/ui/Wordmark';

/** The frame of every admin page: a slim bar, the page title with its actions, then the content. */
export function AdminShell(props: { title: string; subtitle?: ReactNode; actions?: ReactNode; back?: boolean; children: ReactNode }) {
  return (
    <div className="min-h-dvh bg-stone-50">
      <header className="border-b border-stone-200 bg-white">
        <div className="mx-auto flex h-14 max-w-7xl items-center gap-3 px-4 sm:px-6">
          <Link to="/admin/dashboard" aria-label="Admin dashboard" className="rounded-lg">
            <Wordmark />
          </Link>
          <span className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800 ring-1 ring-brand-200">
            <ShieldCheck aria-hidden="true" className="size-3.5" />
            Admin
          </span>
        </div>
      </header>
      <main className="mx-auto max-w-7xl space-y-6 px-4 py-6 sm:px-6">
        <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
          <div className="min-w-0">
            {props.back && (
              <Link to="/admin/dashboard" className="mb-1 inline-flex items-center gap-1 rounded text-sm text-stone-600 hover:text-brand-700">
                <ArrowLeft aria-hidden="true" className="size-4" />
                Dashboard
              </Link>
            )}
            <h1 className="text-2xl font-semibold tracking-tight text-ink">{props.title}</h1>
            {props.subtitle && <div className="mt-0.5 text-sm text-stone-600">{props.subtitle}</div>}
          </div>
          {/* Phones: two even columns; wider screens: one row. */}
          {props.actions && <div className="grid grid-cols-2 items-center gap-2 *:whitespace-nowrap sm:flex sm:flex-wrap">{props.actions}</div>}
        </div>
        {props.children}
      </main>
    </div>
  );
}

/** A compact white panel. */
export function Panel({ className, children, ...rest }: React.HTMLAttributes<HTMLElement>) {
  return (
    <section className={cn('rounded-xl border border-stone-200 bg-white p-4 shadow-xs sm:p-5', className)} {...rest}>
      {children}
    </section>
  );
}

type Tone = 'default' | 'brand' | 'amber' | 'red' | 'emerald';
const toneClasses: Record<Tone, string> = {
  default: 'bg-stone-100 text-stone-600',
  brand: 'bg-brand-50 text-brand-700',
  amber: 'bg-amber-50 text-amber-700',
  red: 'bg-red-50 text-red-700',
  emerald: 'bg-emerald-50 text-emerald-700',
};

/** A metric: label, big value, small print. With `to` or `onClick` the whole card is a control. */
export function StatCard(props: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  icon?: React.ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
  tone?: Tone;
  to?: string;
  loading?: boolean;
  size?: 'md' | 'sm';
}) {
  const Icon = props.icon;
  const small = props.size === 'sm';
  const body = (
    <>
      <div className="flex items-start justify-between gap-2">
        <p className={cn('font-medium text-stone-600', small ? 'text-xs' : 'text-sm')}>{props.label}</p>
        {Icon && (
          <span className={cn('flex size-8 shrink-0 items-center justify-center rounded-lg', toneClasses[props.tone ?? 'default'])}>
            <Icon aria-hidden="true" className="size-4" />
          </span>
        )}
      </div>
      <p className={cn('font-semibold tabular-nums text-ink', small ? 'mt-1 text-xl' : 'mt-2 text-3xl')}>
        {props.loading ? <span className="inline-block h-8 w-16 animate-pulse rounded bg-stone-100 align-middle" aria-label="Loading" /> : props.value}
      </p>
      {props.hint && <p className="mt-1 text-xs text-stone-500">{props.hint}</p>}
    </>
  );
  const classes = cn('block rounded-xl border border-stone-200 bg-white shadow-xs', small ? 'p-3' : 'p-4 sm:p-5');
  if (props.to) {
    return (
      <Link to={props.to} className={cn(classes, 'transition hover:border-brand-300 hover:shadow-sm')}>
        {body}
      </Link>
    );
  }
  return <div className={classes}>{body}</div>;
}

/** A short inline spinner for buttons that are busy. */
export function InlineError({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {children}
    </p>
  );
}
