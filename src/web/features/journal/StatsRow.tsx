import { CalendarDays, Camera, Flame, PenLine } from 'lucide-react';
import type { JournalStats } from '../../../shared/journal';
import { formatCount as format } from './numbers';

/** Spec 9's statistics: current streak, total days, photos, words. */
export function StatsRow({ stats }: { stats: JournalStats }) {
  const items = [
    { label: 'Current streak', value: `${format(stats.current_streak)} ${stats.current_streak === 1 ? 'day' : 'days'}`, icon: Flame, tint: 'text-amber-600' },
    { label: 'Total days', value: format(stats.total_days), icon: CalendarDays, tint: 'text-brand-700' },
    { label: 'Photos', value: format(stats.total_photos), icon: Camera, tint: 'text-brand-700' },
    { label: 'Words', value: format(stats.total_words), icon: PenLine, tint: 'text-brand-700' },
  ];
  return (
    <section aria-label="Journal statistics">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {items.map(({ label, value, icon: Icon, tint }) => (
          <div key={label} className="rounded-2xl border border-stone-200/80 bg-white/70 px-4 py-3">
            <dt className="flex items-center gap-1.5 text-xs font-medium text-stone-500">
              <Icon aria-hidden="true" className={`size-3.5 ${tint}`} />
              {label}
            </dt>
            <dd className="mt-1 font-serif text-2xl font-semibold text-ink tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * The statistics' frame while they load, at the size of the real row, so the search bar and the
 * entries below do not jump down when the figures arrive.
 */
export function StatsRowPlaceholder() {
  return (
    <section aria-label="Loading journal statistics" aria-busy="true">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {['Current streak', 'Total days', 'Photos', 'Words'].map((label) => (
          <div key={label} className="rounded-2xl border border-stone-200/80 bg-white/70 px-4 py-3">
            <dt className="text-xs font-medium text-stone-500">{label}</dt>
            <dd className="mt-1 flex h-8 items-center">
              <span aria-hidden="true" className="h-5 w-14 animate-pulse rounded-md bg-stone-200" />
              <span className="sr-only">Loading</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
