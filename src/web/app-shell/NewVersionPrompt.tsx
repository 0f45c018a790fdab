import { RefreshCw } from 'lucide-react';
import { messages } from '../../shared/messages';
import { useNewVersionAvailable } from './new-version';

/** "A new version of Jotline is available — reload", once this tab's code is out of date. */
export function NewVersionPrompt() {
  const available = useNewVersionAvailable();
  if (!available) return null;
  return (
    <div role="alert" className="fixed inset-x-3 top-3 z-[100] mx-auto flex max-w-md items-center gap-3 rounded-2xl bg-ink px-4 py-3 text-sm text-white shadow-xl sm:top-5">
      <RefreshCw aria-hidden="true" className="size-4 shrink-0" />
      <p className="flex-1">
        {messages.newVersion.available} —{' '}
        <button type="button" onClick={() => window.location.reload()} className="font-semibold underline underline-offset-2 hover:text-brand-100">
          {messages.newVersion.reload}
        </button>
      </p>
    </div>
  );
}
