import { Link } from 'react-router';
import { messages } from '../../../shared/messages';
import { Wordmark } from '../../components/ui/Wordmark';
import { AccountMenu } from './AccountMenu';

export function JournalHeader({ onExport }: { onExport?: () => void }) {
  return (
    <header className="sticky top-0 z-30 border-b border-stone-200 bg-paper/90 backdrop-blur">
      <div className="mx-auto flex max-w-4xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/journal" className="min-w-0 rounded-lg">
          <Wordmark className="text-xl" />
          <span className="mt-0.5 block truncate text-xs text-stone-500">{messages.journal.tagline}</span>
        </Link>
        <AccountMenu onExport={onExport} />
      </div>
    </header>
  );
}
