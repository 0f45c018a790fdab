import { SendHorizontal } from 'lucide-react';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { messages } from '../../../shared/messages';
import { Button } from '../../components/ui/Button';
import { inputClasses } from '../../components/ui/Input';
import { cn } from '../../components/ui/cn';

const MAX_TEXT_LENGTH = 1600;
const QUICK_REPLIES = ['YES', 'HELP', 'STOP', 'START'];

/** Types and sends a text. Enter sends; Shift+Enter starts a new line. */
export function Composer({ onSend, sending, disabled }: { onSend(body: string): Promise<unknown>; sending: boolean; disabled?: boolean }) {
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string>();

  const send = async (body: string) => {
    if (!body.trim()) return setError(messages.devPhone.bodyRequired);
    if (body.length > MAX_TEXT_LENGTH) return setError(messages.devPhone.bodyTooLong);
    setError(undefined);
    try {
      await onSend(body);
      // What is in the box now, not when this send began: a text typed meanwhile stays.
      setDraft((current) => (current === body ? '' : current));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(draft);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (!sending) void send(draft);
    }
  };

  return (
    <form onSubmit={submit} className="space-y-2 border-t border-stone-200 bg-stone-50 p-3" aria-label="Send a text">
      <div className="flex flex-wrap gap-1.5" role="group" aria-label="Quick replies">
        {QUICK_REPLIES.map((word) => (
          <Button key={word} size="sm" variant="secondary" disabled={disabled || sending} onClick={() => void send(word)}>
            {word}
          </Button>
        ))}
      </div>
      <label htmlFor="dev-phone-message" className="sr-only">
        Message to the journal number
      </label>
      <div className="flex items-end gap-2">
        <textarea
          id="dev-phone-message"
          rows={2}
          value={draft}
          disabled={disabled}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Text message"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'dev-phone-message-error' : 'dev-phone-message-hint'}
          className={cn(inputClasses, 'max-h-40 min-h-11 resize-y')}
        />
        <Button type="submit" disabled={disabled || sending} aria-label="Send text" className="h-11 shrink-0">
          <SendHorizontal aria-hidden="true" className="size-4" />
          <span className="hidden sm:inline">Send</span>
        </Button>
      </div>
      {error ? (
        <p id="dev-phone-message-error" role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : (
        <p id="dev-phone-message-hint" className="text-xs text-stone-500">
          Enter sends; Shift+Enter adds a new line.
        </p>
      )}
    </form>
  );
}
