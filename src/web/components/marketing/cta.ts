import { cn } from '../ui/cn';

const variants = {
  primary: 'bg-brand-700 text-white shadow-md shadow-brand-900/15 hover:bg-brand-800',
  secondary: 'border border-stone-300 bg-white text-ink shadow-sm hover:border-stone-400 hover:bg-stone-50',
  /** On the teal banner. */
  light: 'bg-white text-brand-800 shadow-lg hover:bg-amber-50 focus-visible:outline-white',
} as const;

const sizes = {
  md: 'min-h-10 px-5 py-2 text-sm',
  lg: 'min-h-12 px-7 py-2.5 text-base',
  xl: 'min-h-14 px-8 py-3 text-lg',
} as const;

/** Pill-shaped call-to-action links for the public pages. */
export function ctaClasses(variant: keyof typeof variants, size: keyof typeof sizes, extra?: string): string {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-full text-center font-semibold transition-colors',
    variants[variant],
    sizes[size],
    extra,
  );
}
