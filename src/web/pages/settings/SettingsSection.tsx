import type { LucideIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { cn } from '../../components/ui/cn';

/** One card of the settings page: an icon, a serif heading, a line about it, then its contents. */
export function SettingsSection(props: { icon: LucideIcon; title: string; description: ReactNode; children: ReactNode; className?: string }) {
  const id = useId();
  const Icon = props.icon;
  return (
    <section aria-labelledby={`${id}-title`} className={cn('rounded-2xl border border-stone-200 bg-white shadow-sm', props.className)}>
      <header className="flex gap-3 px-5 pt-5 sm:px-7 sm:pt-6">
        <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
          <Icon className="size-5" />
        </span>
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="font-serif text-xl font-semibold text-ink">
            {props.title}
          </h2>
          <p className="mt-0.5 text-sm text-stone-600">{props.description}</p>
        </div>
      </header>
      {props.children}
    </section>
  );
}
