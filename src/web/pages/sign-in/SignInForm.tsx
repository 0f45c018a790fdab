import { useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { EMAIL_MAX_LENGTH, SIGN_IN_FAILURES_PER_WINDOW } from '../../../shared/limits';
import { messages } from '../../../shared/messages';
import { cleanEmail, isSuspiciousInput } from '../../../shared/validation';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { fieldAria } from '../../components/ui/field-aria';
import { Input } from '../../components/ui/Input';
import { PasswordInput } from '../../components/ui/PasswordInput';
import { attemptLimit } from '../../features/auth/attempt-limit';
import { useAuth } from '../../features/auth/auth-context';
import { textLinkClasses } from '../../features/auth/AuthLayout';
import { destinationAfterSignIn } from '../../features/auth/redirect';
import { signInFailureMessage } from './sign-in-failure';
import type { MfaRequired } from '../../../shared/second-factor';
import { MfaRequiredError } from '../../api/second-factor';

const signInAttempts = attemptLimit('jotline.signInAttempts', SIGN_IN_FAILURES_PER_WINDOW);

interface FieldErrors {
  email?: string;
  password?: string;
}

export function SignInForm(props: { email: string; onEmailChange(email: string): void; onForgotPassword(): void; onSecondStep(challenge: MfaRequired): void }) {
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  // Shown once, in the form (a toast said the same words again, over the page).
  function fail(description: string) {
    setFormError(description);
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    setFormError(null);

    const email = cleanEmail(props.email);
    const found: FieldErrors = {};
    if (!email) found.email = messages.signIn.emailRequired;
    else if (isSuspiciousInput(props.email)) found.email = messages.signIn.suspiciousInput;
    if (!password) found.password = messages.signIn.passwordRequired;
    setErrors(found);
    if (found.email) return emailRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();

    if (!signInAttempts.tryAttempt()) return fail(messages.signIn.tooManyAttemptsLocal(Math.max(1, Math.ceil(signInAttempts.retryInMs() / 60_000))));

    setSubmitting(true);
    try {
      await signIn(email, password);
      signInAttempts.reset();
      toast.success(messages.signIn.success);
      navigate(destinationAfterSignIn(location.state), { replace: true });
    } catch (error) {
      setSubmitting(false);
      if (error instanceof MfaRequiredError) {
        signInAttempts.reset();
        return props.onSecondStep(error.challenge);
      }
      fail(signInFailureMessage(error));
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="space-y-5">
      {formError && <Alert tone="error" title={messages.signIn.failedTitle}>{formError}</Alert>}
      <Field id="sign-in-email" label="Email" error={errors.email}>
        <Input
          ref={emailRef}
          id="sign-in-email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email webauthn"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={EMAIL_MAX_LENGTH}
          value={props.email}
          onChange={(e) => props.onEmailChange(e.target.value)}
          {...fieldAria('sign-in-email', { error: errors.email })}
        />
      </Field>
      <div className="space-y-1.5">
        <Field id="sign-in-password" label="Password" error={errors.password}>
          <PasswordInput
            ref={passwordRef}
            id="sign-in-password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            {...fieldAria('sign-in-password', { error: errors.password })}
          />
        </Field>
        <div className="flex justify-end">
          <button type="button" onClick={props.onForgotPassword} className={`text-sm ${textLinkClasses}`}>
            {messages.signIn.forgotPassword}
          </button>
        </div>
      </div>
      <Button type="submit" size="lg" className="w-full" loading={submitting}>
        {submitting ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
