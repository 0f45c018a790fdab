import { useQueryClient } from '@tanstack/react-query';
import { Info, ShieldCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import { ApiError } from '../../api/errors';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { Input } from '../../components/ui/Input';
import { PasswordInput } from '../../components/ui/PasswordInput';
import { useAuth } from '../../features/auth/auth-context';
import { AuthLayout } from '../../features/auth/AuthLayout';
import { adminSignOut, fetchAdminMe } from '../../features/admin/admin-api';
import { adminKeys, useAdminMe } from '../../features/admin/queries';
import type { MfaRequired } from '../../../shared/second-factor';
import { MfaRequiredError } from '../../api/second-factor';
import type { Session } from '../../api/types';
import { securityCopy } from '../../features/security/copy';
import { SecondStepForm } from '../../features/security/SecondStepForm';
import { TotpSetupFlow } from '../../features/security/TotpSetup';
import { PageHead } from '../../seo/PageHead';

const needsMfa = (error: unknown) => error instanceof ApiError && error.code === 'MFA_REQUIRED';

const text = messages.admin;

/**
 * /admin/login: ordinary credentials (and the second step, for an account with one), then the
 * server's admin check; non-admins are signed out again. An admin signed in without a passkey or a
 * second factor is walked through setting up an authenticator app, which opens the dashboard.
 */
export function AdminLoginPage() {
  const { status, user, signIn, acceptSession } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [submitting, setSubmitting] = useState(false);
  const [challenge, setChallenge] = useState<MfaRequired | null>(null);
  const [setup, setSetup] = useState(false);
  // An already signed-in admin goes straight to the dashboard.
  const me = useAdminMe(status === 'signedIn' && !submitting ? user?.id : undefined);

  if (status === 'signedIn' && !submitting && me.data?.success) return <Navigate to="/admin/dashboard" replace />;

  /** The admin check after a sign-in; an admin without a second factor is sent to set one up. */
  async function openDashboard(session: Session) {
    try {
      const answer = await fetchAdminMe();
      if (!answer?.success) throw new ApiError(403, 'FORBIDDEN', text.accessDenied);
      queryClient.setQueryData(adminKeys.me(session.user.id), answer);
    } catch (error) {
      if (needsMfa(error)) return setSetup(true);
      await adminSignOut();
      if (error instanceof ApiError && (error.status === 403 || error.status === 401)) {
        toast.error(text.accessDeniedTitle, { description: text.accessDenied });
      } else {
        toast.error(text.loginErrorTitle, { description: text.loginError });
      }
      return;
    }
    toast.success(text.welcome);
    navigate('/admin/dashboard', { replace: true });
  }

  if (setup || (status === 'signedIn' && !submitting && needsMfa(me.error))) {
    return (
      <AuthLayout title={securityCopy.adminSetupTitle} description={securityCopy.adminSetupLead}>
        <PageHead title="Admin sign in · Jotline" robots="noindex" />
        <TotpSetupFlow
          onDone={async () => {
            await queryClient.invalidateQueries({ queryKey: adminKeys.me(user?.id) });
            const current = await fetchAdminMe().catch(() => null);
            if (current?.success) {
              toast.success(text.welcome);
              navigate('/admin/dashboard', { replace: true });
            }
          }}
        />
      </AuthLayout>
    );
  }

  if (challenge) {
    return (
      <AuthLayout title="Admin sign in" description="Jotline administration">
        <PageHead title="Admin sign in · Jotline" robots="noindex" />
        <SecondStepForm
          challenge={challenge}
          onExpired={() => setChallenge(null)}
          onSession={async (session) => {
            acceptSession(session);
            setChallenge(null);
            setSubmitting(true);
            try {
              await openDashboard(session);
            } finally {
              setSubmitting(false);
            }
          }}
        />
      </AuthLayout>
    );
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!email.trim()) found.email = text.emailRequired;
    if (!password) found.password = text.passwordRequired;
    setErrors(found);
    if (found.email || found.password) return;

    setSubmitting(true);
    try {
      let session;
      try {
        session = await signIn(email.trim(), password);
      } catch (error) {
        if (error instanceof MfaRequiredError) {
          setChallenge(error.challenge);
          return;
        }
        if (error instanceof ApiError && error.status < 500) {
          toast.error(text.loginFailedTitle, { description: error.message || text.invalidCredentials });
        } else {
          toast.error(text.loginErrorTitle, { description: text.loginError });
        }
        return;
      }
      await openDashboard(session);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthLayout
      title="Admin sign in"
      description={
        <span className="inline-flex items-center gap-1.5">
          <ShieldCheck aria-hidden="true" className="size-4 text-brand-700" />
          Jotline administration
        </span>
      }
    >
      <PageHead title="Admin sign in · Jotline" robots="noindex" />
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <Field id="admin-email" label="Email" error={errors.email}>
          <Input
            id="admin-email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={!!errors.email || undefined}
            aria-describedby={errors.email ? 'admin-email-error' : undefined}
          />
        </Field>
        <Field id="admin-password" label="Password" error={errors.password}>
          <PasswordInput
            id="admin-password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={!!errors.password || undefined}
            aria-describedby={errors.password ? 'admin-password-error' : undefined}
          />
        </Field>
        <Button type="submit" className="w-full" loading={submitting}>
          {submitting ? text.signingIn : text.signIn}
        </Button>
        <p className="flex gap-2 rounded-lg bg-stone-50 p-3 text-xs text-stone-600">
          <Info aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
          {text.credentialsNote}
        </p>
      </form>
    </AuthLayout>
  );
}
