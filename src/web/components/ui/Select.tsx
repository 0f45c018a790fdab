import { ChevronDown } from 'lucide-react';
import type { SelectHTMLAttributes } from 'react';
import { cn } from './cn';
import { inputClasses } from './Input';

/** A native select in the form's style: keyboard and screen readers get the platform's own control. */
export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <div className={cn('relative', className)}>
      <select {...props} className={cn(inputClasses, 'appearance-none pr-9 disabled:cursor-not-allowed disabled:text-stone-500')} />
      <ChevronDown aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-stone-500" />
    </div>
  );
}
