import { MessageSquareText } from 'lucide-react';
import { cn } from './cn';

/** Jotline's name set in the serif face with a speech-bubble mark. */
export function Wordmark({ className }: { className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-serif text-2xl font-semibold tracking-tight text-brand-800', className)}>
      <span aria-hidden="true" className="flex size-8 items-center justify-center rounded-lg bg-brand-700 text-white shadow-sm">
        <MessageSquareText className="size-4.5" />
      </span>
      Jotline
    </span>
  );
}
