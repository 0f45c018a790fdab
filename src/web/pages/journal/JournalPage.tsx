import { PageHead } from '../../seo/PageHead';
import { useAuth } from '../../features/auth/auth-context';
import { JournalHeader } from './JournalHeader';
import { WelcomeCard } from './WelcomeCard';

export function JournalPage() {
  const { user } = useAuth();
  return (
    <div className="min-h-dvh bg-paper">
      <PageHead title="Your journal · Jotline" robots="noindex" />
      <JournalHeader />
      <main className="mx-auto max-w-4xl px-4 py-8">
        <WelcomeCard phone={user?.phone ?? null} phoneVerified={user?.phone_verified ?? false} />
      </main>
    </div>
  );
}
