import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import { isStrongSignUpPassword } from '../../../shared/validation';
import { logout, updatePassword } from '../../api/auth';
import { NetworkError } from '../../api/errors';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { PasswordInput } from '../../components/ui/PasswordInput';

/** Spec 5 (set new password): all fields, matching, and the one password rule sign-up uses. */
function checkNewPassword(password: string, confirmation: string): string | null {
  if (!password || !confirmation) return messages.reset.fillAllFields;
  if (password !== confirmation) return messages.reset.mismatch;
  if (!isStrongSignUpPassword(password)) return messages.signUp.weakPassword;
  return null;
}

/** 'Set New Password' with the recovery session's token; signs that session out afterwards. */
export function NewPasswordForm({ accessToken }: { accessToken: string }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** The server refused or could not be reached (spec 8: 'Password reset failed'), not a form rule. */
  const [failed, setFailed] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    const problem = checkNewPassword(password, confirmation);
    setError(problem);
    setFailed(false);
    if (problem) return passwordRef.current?.focus();

    setSubmitting(true);
    try {
      await updatePassword(password, accessToken);
    } catch (failure) {
      setSubmitting(false);
      const description = failure instanceof NetworkError ? messages.signIn.connection : failure instanceof Error ? failure.message : String(failure);
      // In the form only: a toast said the same words again.
      setError(description);
      setFailed(true);
      return;
    }
    // The recovery session was only for this; sign in again with the new password.
    await logout('local', accessToken).catch(() => undefined);
    toast.success(messages.reset.updated);
    navigate('/sign-in', { replace: true });
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="space-y-5">
      {error && (
        <Alert tone="error" title={failed ? messages.reset.failedTitle : undefined}>
          {error}
        </Alert>
      )}
      <Field id="new-password" label="New Password" help={messages.reset.passwordRule}>
        <PasswordInput
          ref={passwordRef}
          id="new-password"
          name="new-password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby="new-password-help"
        />
      </Field>
      <Field id="confirm-password" label="Confirm Password">
        <PasswordInput
          id="confirm-password"
          name="confirm-password"
          autoComplete="new-password"
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
          aria-invalid={error ? true : undefined}
        />
      </Field>
      <Button type="submit" size="lg" className="w-full" loading={submitting}>
        {submitting ? 'Updating password...' : 'Update Password'}
      </Button>
    </form>
  );
}
