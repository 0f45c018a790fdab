import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import { verifyRecovery } from '../../api/auth';
import { NetworkError } from '../../api/errors';
import { Button } from '../../components/ui/Button';
import { PageHead } from '../../seo/PageHead';
import { Spinner } from '../../components/ui/Spinner';
import { AuthLayout } from '../../features/auth/AuthLayout';
import { useOneTimeExchange } from '../../features/auth/useOneTimeExchange';
import { NewPasswordForm } from './NewPasswordForm';
import { MfaRequiredError } from '../../api/second-factor';
import { SecondStepForm } from '../../features/security/SecondStepForm';
import { readResetLink } from './reset-link';

/** How long the invalid-link screen waits before going to sign-in (spec 2). */
const INVALID_LINK_REDIRECT_MS = 3_000;

const exchangeTokenHash = (tokenHash: string) => verifyRecovery(tokenHash).then((session) => session.access_token);

export function ResetPasswordPage() {
  const location = useLocation();
  const link = useMemo(() => readResetLink(location.search, location.hash), [location.search, location.hash]);
  const verification = useOneTimeExchange(link.kind === 'tokenHash' ? link.tokenHash : null, exchangeTokenHash);
  // With a second factor on, the link is the first step: the second gives the session.
  const [afterSecondStep, setAfterSecondStep] = useState<string | null>(null);

  let content;
  if (afterSecondStep) content = <SetNewPassword accessToken={afterSecondStep} />;
  else if (verification.status === 'failed' && verification.error instanceof MfaRequiredError) {
    content = (
      <AuthLayout title={messages.reset.setNewHeading}>
        <SecondStepForm challenge={verification.error.challenge} onSession={(session) => setAfterSecondStep(session.access_token)} />
      </AuthLayout>
    );
  } else if (link.kind === 'accessToken') content = <SetNewPassword accessToken={link.accessToken} />;
  else if (link.kind === 'invalid') content = <InvalidLink offline={false} />;
  else if (verification.status === 'done') content = <SetNewPassword accessToken={verification.value} />;
  else if (verification.status === 'failed') content = <InvalidLink offline={verification.error instanceof NetworkError} />;
  else content = <Verifying />;

  return (
    <>
      <PageHead title="Reset your password · Jotline" robots="noindex" />
      {content}
    </>
  );
}

function SetNewPassword({ accessToken }: { accessToken: string }) {
  return (
    <AuthLayout title={messages.reset.setNewHeading} description="Choose a new password for your Jotline account.">
      <NewPasswordForm accessToken={accessToken} />
    </AuthLayout>
  );
}

function Verifying() {
  return (
    <AuthLayout title={messages.reset.verifyingHeading}>
      <div className="flex items-center gap-3 text-sm text-stone-600">
        <Spinner className="size-5 text-brand-700" label={messages.reset.verifyingHeading} />
        Please wait while we check your reset link...
      </div>
    </AuthLayout>
  );
}

function InvalidLink({ offline }: { offline: boolean }) {
  const navigate = useNavigate();
  useEffect(() => {
    // One id, so a second mount in development updates the toast instead of stacking another.
    if (offline) toast.error(messages.reset.verifyErrorTitle, { id: 'reset-link', description: messages.reset.verifyError });
    else toast.error(messages.reset.invalidToast, { id: 'reset-link', description: messages.reset.invalidText });
    const timer = setTimeout(() => navigate('/sign-in', { replace: true }), INVALID_LINK_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [offline, navigate]);

  return (
    <AuthLayout title={messages.reset.invalidHeading}>
      <div className="space-y-5">
        <p role="alert" className="text-sm text-stone-700">
          {messages.reset.invalidText}
        </p>
        <p className="text-sm text-stone-500">You'll be redirected to the sign-in page in a few seconds.</p>
        <Button size="lg" className="w-full" onClick={() => navigate('/sign-in', { replace: true })}>
          {messages.reset.goToSignIn}
        </Button>
      </div>
    </AuthLayout>
  );
}
