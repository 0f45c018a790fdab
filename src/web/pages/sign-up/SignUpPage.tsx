import { Link, useSearchParams } from 'react-router';
import { TRIAL_DAYS } from '../../../shared/limits';
import { Alert } from '../../components/ui/Alert';
import { PageHead } from '../../seo/PageHead';
import { AuthLayout, textLinkClasses } from '../../features/auth/AuthLayout';
import { SignUpForm } from './SignUpForm';

export function SignUpPage() {
  const [params] = useSearchParams();
  const timedOut = params.get('timeout') === 'true';
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
      <PageHead title="Create your account · Jotline" />
      {timedOut && (
        <Alert tone="info" title="Phone verification timed out" className="mb-5">
          We didn't hear back from your phone in time. Please sign up again to get a new verification text.
        </Alert>
      )}
      <SignUpForm />
    </AuthLayout>
  );
}
