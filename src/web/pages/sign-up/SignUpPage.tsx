import { use } from 'react';
import { Link, useSearchParams } from 'react-router';
import { TRIAL_DAYS } from '../../../shared/limits';
import { messages } from '../../../shared/messages';
import { Alert } from '../../components/ui/Alert';
import { HeadCollectorContext, PageHead } from '../../seo/PageHead';
import { AuthLayout, textLinkClasses } from '../../features/auth/AuthLayout';
import { SignUpForm } from './SignUpForm';

export function SignUpPage() {
  const [params] = useSearchParams();
  const timedOut = params.get('timeout') === 'true';
  // Pre-rendered, the form shows before the app has loaded; typing there would be lost when the app
  // takes over, so its fields stay disabled until then (and, without JavaScript, the note says why).
  const prerendering = use(HeadCollectorContext) !== null;
  return (
    <AuthLayout
      title="Start your journal"
      description={`Your ${TRIAL_DAYS}-day free trial starts today. No credit card required.`}
      footer={
        <>
          Already have an account?{' '}
          <Link to="/sign-in" className={textLinkClasses}>
            Sign in
          </Link>
        </>
      }
    >
      <PageHead title="Create your account · Jotline" description={messages.signUp.metaDescription} path="/sign-up" />
      {/* The page is pre-rendered; without JavaScript the form cannot send, so say why. */}
      <noscript>
        <Alert tone="info" title={messages.signUp.noScriptTitle} className="mb-5">
          {messages.signUp.noScript}
        </Alert>
      </noscript>
      {timedOut && (
        <Alert tone="info" title="Phone verification timed out" className="mb-5">
          We didn't hear back from your phone in time. Please sign up again to get a new verification text.
        </Alert>
      )}
      {prerendering ? (
        <fieldset disabled className="min-w-0">
          <SignUpForm />
        </fieldset>
      ) : (
        <SignUpForm />
      )}
    </AuthLayout>
  );
}
