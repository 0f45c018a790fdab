import { LogOut } from 'lucide-react';
import { Link, Navigate } from 'react-router';
import { Button } from '../../components/ui/Button';
import { Wordmark } from '../../components/ui/Wordmark';
import { useSignOut } from '../../features/auth/useSignOut';
import { TrialExpiredPanel } from '../../features/billing';
import { useSubscription } from '../../features/journal';
import { subscriptionBanner } from '../../features/journal/subscription-banner';

/**
 * /trial-expired: shown in place of guarded pages when access has lapsed. Someone whose trial or
 * subscription runs is sent to the journal; anyone may sign out from here.
 */
export function TrialExpiredPage() {
  const subscription = useSubscription();
  const signOut = useSignOut();
  if (subscription.data && subscriptionBanner(subscription.data).kind !== 'expired') return <Navigate to="/journal" replace />;
  return (
    <div className="min-h-dvh bg-stone-50">
      <header className="mx-auto flex max-w-4xl items-center justify-between gap-4 px-5 py-5 sm:px-8">
        <Link to="/" aria-label="Jotline home">
          <Wordmark />
        </Link>
        <Button variant="ghost" size="sm" onClick={() => void signOut()}>
          <LogOut aria-hidden="true" className="size-4" />
          Sign Out
        </Button>
      </header>
      <main>
        <TrialExpiredPanel />
      </main>
    </div>
  );
}
