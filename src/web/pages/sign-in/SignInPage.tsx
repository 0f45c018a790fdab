import { useCallback, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { MfaRequired } from '../../../shared/second-factor';
import type { Session } from '../../api/types';
import { useAuth } from '../../features/auth/auth-context';
import { destinationAfterSignIn } from '../../features/auth/redirect';
import { PasskeySignIn } from '../../features/security/PasskeySignIn';
import { SecondStepForm } from '../../features/security/SecondStepForm';
import { MessageSquareText } from 'lucide-react';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { PageHead } from '../../seo/PageHead';
import { messages } from '../../../shared/messages';
import { AuthLayout, textLinkClasses } from '../../features/auth/AuthLayout';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { SignInForm } from './SignInForm';
import { TextLinkForm } from './TextLinkForm';

type Mode = 'signIn' | 'forgotPassword' | 'textLink';

export function SignInPage() {
  const [mode, setMode] = useState<Mode>('signIn');
  const [email, setEmail] = useState('');
  const [resetSent, setResetSent] = useState(false);
  const [challenge, setChallenge] = useState<MfaRequired | null>(null);
  const { acceptSession } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const signedIn = useCallback(
    (session: Session) => {
      acceptSession(session);
      toast.success(messages.signIn.success);
      navigate(destinationAfterSignIn(location.state), { replace: true });
    },
    [acceptSession, navigate, location.state],
  );

  if (challenge) {
    return (
      <AuthLayout title="Welcome back" description="One more step to open your journal.">
        <PageHead title="Sign in · Jotline" robots="noindex" />
        <SecondStepForm challenge={challenge} onSession={signedIn} onExpired={() => setChallenge(null)} />
      </AuthLayout>
    );
  }

  if (mode === 'forgotPassword') {
    return (
      <AuthLayout title="Reset your password" description="Enter the email you signed up with and we'll send you a link to set a new password.">
        <PageHead title="Reset your password · Jotline" robots="noindex" />
        <ForgotPasswordForm
          email={email}
          onEmailChange={setEmail}
          onBack={() => setMode('signIn')}
          onSent={() => {
            setResetSent(true);
            setMode('signIn');
          }}
        />
      </AuthLayout>
    );
  }

  if (mode === 'textLink') {
    return (
      <AuthLayout title={messages.signInByText.title} description={messages.signInByText.lead}>
        <PageHead title="Sign in by text · Jotline" robots="noindex" />
        <TextLinkForm onBack={() => setMode('signIn')} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Welcome back"
      description="Sign in to read, search and export your journal."
      footer={
        <>
          New to Jotline?{' '}
          <Link to="/sign-up" className={textLinkClasses}>
            Create an account
          </Link>
        </>
      }
    >
      <PageHead title="Sign in · Jotline" robots="noindex" />
      {resetSent && (
        <Alert tone="success" title={messages.reset.sentTitle} className="mb-5">
          {messages.reset.sent}
        </Alert>
      )}
      <SignInForm
        email={email}
        onEmailChange={setEmail}
        onForgotPassword={() => {
          setResetSent(false);
          setMode('forgotPassword');
        }}
        onSecondStep={setChallenge}
      />
      <div className="mt-5 space-y-3 border-t border-stone-200 pt-5">
        <PasskeySignIn onSession={signedIn} />
        <Button
          variant="secondary"
          size="lg"
          className="w-full"
          onClick={() => {
            setResetSent(false);
            setMode('textLink');
          }}
        >
          <MessageSquareText aria-hidden="true" className="size-4" />
          {messages.signInByText.switchTo}
        </Button>
      </div>
    </AuthLayout>
  );
}
