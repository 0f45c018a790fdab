import { Link } from 'react-router';
import { PRODUCT_NAME } from '../../../shared/site';
import { cn } from '../ui/cn';

/** The speech-bubble mark from the favicon. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" className={cn('size-8 shrink-0', className)}>
      <rect width="64" height="64" rx="14" fill="#0f766e" />
      <path d="M18 20h28a4 4 0 0 1 4 4v14a4 4 0 0 1-4 4H30l-8 7v-7h-4a4 4 0 0 1-4-4V24a4 4 0 0 1 4-4z" fill="#fff" />
      <path d="M22 28h20M22 34h12" stroke="#0f766e" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

/** Mark and name, linking home. */
export function Logo({ className }: { className?: string }) {
  return (
    <Link to="/" className={cn('inline-flex items-center gap-2.5 rounded-md', className)}>
      <LogoMark />
      <span className="font-serif text-2xl font-semibold tracking-tight text-ink">{PRODUCT_NAME}</span>
    </Link>
  );
}
