import { useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { EMAIL_MAX_LENGTH } from '../../../shared/limits';
import { messages } from '../../../shared/messages';
import { cleanEmail, isSuspiciousInput } from '../../../shared/validation';
import { requestPasswordReset } from '../../api/auth';
import { NetworkError } from '../../api/errors';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { fieldAria } from '../../components/ui/field-aria';
import { Input } from '../../components/ui/Input';

/** The 'Forgot your password?' mode of the sign-in page. */
export function ForgotPasswordForm(props: { email: string; onEmailChange(email: string): void; onBack(): void; onSent(): void }) {
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    setFormError(null);
    const email = cleanEmail(props.email);
    const found = !email ? messages.reset.emailRequired : isSuspiciousInput(props.email) ? messages.signIn.suspiciousInput : undefined;
    setError(found);
    if (found) return emailRef.current?.focus();

    setSubmitting(true);
    try {
      await requestPasswordReset(email);
      toast.success(messages.reset.sentTitle, { description: messages.reset.sent });
      props.onSent();
    } catch (failure) {
      setSubmitting(false);
      const description = failure instanceof NetworkError ? messages.signIn.connection : failure instanceof Error ? failure.message : String(failure);
      // In the form only: a toast said the same words again.
      setFormError(description);
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="space-y-5">
      {formError && <Alert tone="error" title={messages.reset.failedTitle}>{formError}</Alert>}
      <Field id="reset-email" label="Email" error={error}>
        <Input
          ref={emailRef}
          id="reset-email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={EMAIL_MAX_LENGTH}
          value={props.email}
          onChange={(e) => props.onEmailChange(e.target.value)}
          {...fieldAria('reset-email', { error })}
        />
      </Field>
      <Button type="submit" size="lg" className="w-full" loading={submitting}>
        {messages.signIn.sendResetEmail}
      </Button>
      <Button variant="ghost" className="w-full" onClick={props.onBack}>
        {messages.signIn.backToSignIn}
      </Button>
    </form>
  );
}
