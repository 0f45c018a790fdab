import { Link } from 'react-router';
import { Wordmark } from '../../components/ui/Wordmark';
import { TrialExpiredPanel } from '../../features/billing';

/** /trial-expired: shown in place of guarded pages when access has lapsed. */
export function TrialExpiredPage() {
  return (
    <div className="min-h-dvh bg-stone-50">
      <header className="mx-auto flex max-w-4xl items-center px-5 py-5 sm:px-8">
        <Link to="/" aria-label="Jotline home">
          <Wordmark />
        </Link>
      </header>
      <main>
        <TrialExpiredPanel />
      </main>
    </div>
  );
}
