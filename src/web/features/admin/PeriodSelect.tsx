import { useId } from 'react';
import { ADMIN_PERIOD_LABELS, ADMIN_PERIODS, type AdminPeriod } from '../../../shared/admin';

/** A native select of the six periods: small, and keyboard-friendly everywhere. */
export function PeriodSelect({ value, onChange, label }: { value: AdminPeriod; onChange: (period: AdminPeriod) => void; label: string }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as AdminPeriod)}
        className="h-8 rounded-lg border border-stone-300 bg-white px-2 text-sm text-ink focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30 focus:outline-none"
      >
        {ADMIN_PERIODS.map((period) => (
          <option key={period} value={period}>
            {ADMIN_PERIOD_LABELS[period]}
          </option>
        ))}
      </select>
    </>
  );
}
