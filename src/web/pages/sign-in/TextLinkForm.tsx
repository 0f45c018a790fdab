import { useEffect, useRef, useState, type FormEvent } from 'react';
import { messages } from '../../../shared/messages';
import { formatUsPhone } from '../../../shared/site';
import { JOURNAL_NUMBER } from '../../components/marketing/journalNumber';
import { limitPhoneInput, normalizeUsPhone } from '../../../shared/phone';
import { ApiError, NetworkError } from '../../api/errors';
import { requestSignInLinkByText } from '../../api/sign-in-link';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { fieldAria } from '../../components/ui/field-aria';
import { Input } from '../../components/ui/Input';

const copy = messages.signInByText;

/** Why asking for a link failed, in words a person can act on. */
function failureMessage(failure: unknown): string {
  if (failure instanceof NetworkError) return messages.signIn.connection;
  if (failure instanceof ApiError && failure.status === 429) return copy.rateLimited;
  if (failure instanceof ApiError && failure.status === 400) return messages.signUp.invalidPhone;
  return messages.generic.internal;
}

/** The "Text me a sign-in link" mode of the sign-in page: a phone field, then a confirmation. */
export function TextLinkForm(props: { onBack(): void }) {
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState(false);
  const phoneRef = useRef<HTMLInputElement>(null);
  const sentRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    (sent ? sentRef : phoneRef).current?.focus();
  }, [sent]);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    setFormError(null);
    const phoneNumber = normalizeUsPhone(phone);
    setError(phoneNumber ? undefined : messages.signUp.invalidPhone);
    if (!phoneNumber) return phoneRef.current?.focus();
    setSubmitting(true);
    try {
      await requestSignInLinkByText(phoneNumber);
      setSent(true);
    } catch (failure) {
      setFormError(failureMessage(failure));
    } finally {
      setSubmitting(false);
    }
  }

  if (sent) {
    return (
      <div className="space-y-5">
        <div ref={sentRef} tabIndex={-1} className="outline-none">
          <Alert tone="success" title={copy.sentTitle}>
            {copy.sent}
          </Alert>
          <p className="mt-3 text-sm text-stone-600">{copy.stopped(formatUsPhone(JOURNAL_NUMBER))}</p>
        </div>
        <Button variant="secondary" className="w-full" onClick={() => setSent(false)}>
          {copy.useAnotherNumber}
        </Button>
        <Button variant="ghost" className="w-full" onClick={props.onBack}>
          {copy.switchBack}
        </Button>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="space-y-5">
      {formError && <Alert tone="error">{formError}</Alert>}
      <Field id="text-link-phone" label={copy.phoneLabel} error={error}>
        <Input
          ref={phoneRef}
          id="text-link-phone"
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder="(555) 123-4567"
          value={phone}
          onChange={(e) => setPhone(limitPhoneInput(e.target.value))}
          {...fieldAria('text-link-phone', { error })}
        />
      </Field>
      <Button type="submit" size="lg" className="w-full" loading={submitting}>
        {submitting ? copy.sending : copy.send}
      </Button>
      <Button variant="ghost" className="w-full" onClick={props.onBack}>
        {copy.switchBack}
      </Button>
    </form>
  );
}
