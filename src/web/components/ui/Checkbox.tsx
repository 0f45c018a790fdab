import { Check } from 'lucide-react';
import { Checkbox as RadixCheckbox } from 'radix-ui';
import { forwardRef, type ComponentPropsWithoutRef, type ElementRef } from 'react';
import { cn } from './cn';

/** A Radix checkbox in Jotline's colours; pair it with a <label htmlFor>. */
export const Checkbox = forwardRef<ElementRef<typeof RadixCheckbox.Root>, ComponentPropsWithoutRef<typeof RadixCheckbox.Root>>(
  function Checkbox({ className, ...props }, ref) {
    return (
      <RadixCheckbox.Root
        ref={ref}
        className={cn(
          'peer mt-0.5 flex size-5 shrink-0 items-center justify-center rounded border border-stone-400 bg-white shadow-sm',
          'data-[state=checked]:border-brand-700 data-[state=checked]:bg-brand-700 data-[state=checked]:text-white',
          'aria-[invalid=true]:border-red-500 disabled:cursor-not-allowed disabled:opacity-50',
          className,
        )}
        {...props}
      >
        <RadixCheckbox.Indicator>
          <Check aria-hidden="true" className="size-3.5" strokeWidth={3} />
        </RadixCheckbox.Indicator>
      </RadixCheckbox.Root>
    );
  },
);
