import { useEffect, useRef } from 'react';
import { cn } from '../../components/ui/cn';
import type { DevPhoneText } from './use-conversation';

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

/**
 * The texts as chat bubbles: the phone's own on the right, the journal number's on the left. It is
 * a live log, so screen readers hear new texts as they arrive.
 */
export function ConversationView({ texts }: { texts: DevPhoneText[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [texts.length]);

  return (
    <div ref={box} role="log" aria-live="polite" aria-label="Conversation" tabIndex={0} className="h-[55dvh] min-h-64 overflow-y-auto bg-paper">
      {texts.length === 0 ? (
        <p className="px-4 py-10 text-center text-sm text-stone-500">No texts yet. Say hello, or text YES to verify a new account.</p>
      ) : (
        <ol className="space-y-2 px-3 py-4">
          {texts.map((text) => {
            const mine = text.direction === 'sent';
            return (
              <li key={text.id} className={cn('flex flex-col', mine ? 'items-end' : 'items-start')}>
                <span className="sr-only">{mine ? 'You sent:' : 'Jotline sent:'}</span>
                <p
                  className={cn(
                    'max-w-[85%] whitespace-pre-wrap break-words rounded-2xl px-3.5 py-2 text-[15px] leading-snug shadow-sm',
                    mine ? 'rounded-br-md bg-brand-700 text-white' : 'rounded-bl-md bg-white text-ink ring-1 ring-stone-200',
                  )}
                >
                  {text.body}
                </p>
                <time dateTime={text.at} className="mt-0.5 px-1 text-[11px] text-stone-500">
                  {timeFormat.format(new Date(text.at))}
                </time>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
