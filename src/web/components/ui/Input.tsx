import { forwardRef, type InputHTMLAttributes } from 'react';
import { cn } from './cn';

export const inputClasses =
  'block w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-base text-ink shadow-sm placeholder:text-stone-400 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 aria-[invalid=true]:border-red-500 disabled:bg-stone-100';

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...props },
  ref,
) {
  return <input ref={ref} className={cn(inputClasses, className)} {...props} />;
});
