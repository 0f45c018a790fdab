import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { messages } from '../../../shared/messages';
import { exchangeSignInLink } from '../../api/auth';
import { NetworkError } from '../../api/errors';
import { Alert } from '../../components/ui/Alert';
import { Button, buttonClasses } from '../../components/ui/Button';
import { PageHead } from '../../seo/PageHead';
import { Spinner } from '../../components/ui/Spinner';
import { useAuth } from '../../features/auth/auth-context';
import { AuthLayout } from '../../features/auth/AuthLayout';
import { isSafeAppPath } from '../../features/auth/redirect';
import { useOneTimeExchange } from '../../features/auth/useOneTimeExchange';
import { EmailConfirmation } from './EmailConfirmation';
import { MfaRequiredError } from '../../api/second-factor';
import { SecondStepForm } from '../../features/security/SecondStepForm';

/**
 * The target of a sign-in link (the phone-verification auth_link): trades ?token= for a session.
 * The link e-mailed at sign-up comes here too (?token_hash=…&type=email) and confirms the address.
 */
export function AuthCallbackPage() {
  const [params] = useSearchParams();
  if (params.get('type') === 'email') return <EmailConfirmation tokenHash={params.get('token_hash')} />;
  return <SignInLinkExchange />;
}

function SignInLinkExchange() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const location = useLocation();
  const navigate = useNavigate();
  const { acceptSession } = useAuth();
  const exchange = useOneTimeExchange(token, exchangeSignInLink);

  const redirectTo = (location.state as { redirectTo?: unknown } | null)?.redirectTo;
  const destination = isSafeAppPath(redirectTo) ? redirectTo : '/journal';

  useEffect(() => {
    if (exchange.status !== 'done') return;
    acceptSession(exchange.value);
    navigate(destination, { replace: true });
  }, [exchange, acceptSession, navigate, destination]);

  // The account has a second factor: the link was the first step.
  if (exchange.status === 'failed' && exchange.error instanceof MfaRequiredError) {
    return (
      <AuthLayout title="Signing you in">
        <PageHead title="Signing in · Jotline" robots="noindex" />
        <SecondStepForm
          challenge={exchange.error.challenge}
          onSession={(session) => {
            acceptSession(session);
            navigate(destination, { replace: true });
          }}
        />
      </AuthLayout>
    );
  }

  if (!token || exchange.status === 'failed') {
    const offline = exchange.status === 'failed' && exchange.error instanceof NetworkError;
    return (
      <AuthLayout title={offline ? "We couldn't sign you in" : 'Sign-in link invalid'}>
        <PageHead title="Signing in · Jotline" robots="noindex" />
        <div className="space-y-5">
          <Alert tone="error">{offline ? messages.signIn.connection : messages.auth.invalidLink}</Alert>
          <div className="flex flex-col gap-2 sm:flex-row">
            {offline && (
              <Button className="sm:flex-1" onClick={() => window.location.reload()}>
                Try again
              </Button>
            )}
            <Link to="/sign-in" className={buttonClasses(offline ? 'secondary' : 'primary', 'md', 'sm:flex-1')}>
              {messages.reset.goToSignIn}
            </Link>
          </div>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Signing you in">
      <PageHead title="Signing in · Jotline" robots="noindex" />
      <div className="flex items-center gap-3 text-sm text-stone-600">
        <Spinner className="size-5 text-brand-700" label="Signing you in" />
        Opening your journal...
      </div>
    </AuthLayout>
  );
}
