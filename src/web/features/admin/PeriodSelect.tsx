import { useId } from 'react';
import { PERIOD_OPTIONS } from './format';
import type { MetricsPeriod } from './types';

/** A native select of the six periods: small, and keyboard-friendly everywhere. */
export function PeriodSelect({ value, onChange, label }: { value: MetricsPeriod; onChange: (period: MetricsPeriod) => void; label: string }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as MetricsPeriod)}
        className="h-8 rounded-lg border border-stone-300 bg-white px-2 text-sm text-ink focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30 focus:outline-none"
      >
        {PERIOD_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </>
  );
}
