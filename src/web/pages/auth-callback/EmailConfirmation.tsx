import { Link } from 'react-router';
import { messages } from '../../../shared/messages';
import { verifyEmail } from '../../api/auth';
import { NetworkError } from '../../api/errors';
import { Alert } from '../../components/ui/Alert';
import { buttonClasses } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { AuthLayout } from '../../features/auth/AuthLayout';
import { useOneTimeExchange } from '../../features/auth/useOneTimeExchange';
import { PageHead } from '../../seo/PageHead';

const copy = messages.emailVerification;

/** /auth/callback?token_hash=…&type=email: the link e-mailed at sign-up confirms the address. */
export function EmailConfirmation({ tokenHash }: { tokenHash: string | null }) {
  const exchange = useOneTimeExchange(tokenHash, verifyEmail);
  const failed = !tokenHash || exchange.status === 'failed';
  const offline = exchange.status === 'failed' && exchange.error instanceof NetworkError;
  return (
    <AuthLayout title={exchange.status === 'done' ? copy.confirmed : failed ? 'Confirmation link invalid' : copy.confirming}>
      <PageHead title="Confirm e-mail · Jotline" robots="noindex" />
      {exchange.status === 'pending' && !failed ? (
        <div className="flex items-center gap-3 text-sm text-stone-600">
          <Spinner className="size-5 text-brand-700" label={copy.confirming} />
          {copy.confirming}
        </div>
      ) : (
        <div className="space-y-5">
          {failed && <Alert tone="error">{offline ? messages.signIn.connection : copy.invalidLink}</Alert>}
          <Link to="/journal" className={buttonClasses('primary', 'md', 'w-full')}>
            Open my journal
          </Link>
        </div>
      )}
    </AuthLayout>
  );
}
