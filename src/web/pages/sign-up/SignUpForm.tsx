import { useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { DEFAULT_TIMEZONE } from '../../../shared/auth-schemas';
import { EMAIL_MAX_LENGTH, PHONE_MAX_LENGTH, SIGN_UPS_PER_WINDOW } from '../../../shared/limits';
import { messages, titled } from '../../../shared/messages';
import { limitPhoneInput } from '../../../shared/phone';
import { formatUsPhone } from '../../../shared/site';
import { ApiError } from '../../api/errors';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { fieldAria } from '../../components/ui/field-aria';
import { Input } from '../../components/ui/Input';
import { Select } from '../../components/ui/Select';
import { PasswordInput } from '../../components/ui/PasswordInput';
import { attemptLimit } from '../../features/auth/attempt-limit';
import { useAuth } from '../../features/auth/auth-context';
import { textLinkClasses } from '../../features/auth/AuthLayout';
import { browserTimezone, timezoneOptions } from '../../features/time-zone/zones';
import { readSignUpDraft, savePendingVerification, type PendingVerification } from '../../features/auth/pending-verification';
import { PasswordChecklist } from './PasswordChecklist';
import { signUpFailureNotice, type Notice } from './sign-up-failure';
import { checkSignUp, type SignUpErrors, type SignUpFields } from './sign-up-validation';
import { SmsConsentField } from './SmsConsentField';

const signUpAttempts = attemptLimit('jotline.signUpAttempts', SIGN_UPS_PER_WINDOW);

const fieldOrder: Array<keyof SignUpFields> = ['email', 'phone', 'password', 'smsConsent'];

export function SignUpForm() {
  const { signUp } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [fields, setFields] = useState<SignUpFields>(() => {
    const draft = readSignUpDraft(location.state);
    return { email: draft?.email ?? '', phone: draft ? formatUsPhone(draft.phone) : '', password: '', smsConsent: false };
  });
  // The journal's zone, from this browser (Eastern while pre-rendered on the server); the person can change it.
  const [timezone, setTimezone] = useState(() => (typeof window === 'undefined' ? DEFAULT_TIMEZONE : browserTimezone()));
  const [errors, setErrors] = useState<SignUpErrors>({});
  const [formError, setFormError] = useState<Notice | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const refs = {
    email: useRef<HTMLInputElement>(null),
    phone: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    smsConsent: useRef<HTMLButtonElement>(null),
  };

  const update = <K extends keyof SignUpFields>(key: K, value: SignUpFields[K]) => setFields((f) => ({ ...f, [key]: value }));

  // Shown once, in the form (a toast said the same words again, over the page).
  function fail(notice: Notice) {
    setFormError(notice);
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    setFormError(null);

    const check = checkSignUp(fields);
    if (!check.ok) {
      setErrors(check.errors);
      if (check.errors.form) fail({ title: messages.signUp.suspiciousInputTitle, description: messages.signUp.suspiciousInput });
      refs[fieldOrder.find((key) => check.errors[key]) ?? 'email'].current?.focus();
      return;
    }
    setErrors({});
    if (!signUpAttempts.tryAttempt()) {
      return fail({ title: messages.signUp.tooManyAttemptsTitle, description: messages.signUp.tooManyAttempts });
    }

    setSubmitting(true);
    try {
      const result = await signUp({
        email: check.email,
        password: fields.password,
        phoneNumber: check.phoneNumber,
        timezone,
        smsConsent: true,
      });
      if (!result.verification_token) {
        setSubmitting(false);
        return fail({ title: messages.signUp.missingTokenTitle, description: messages.signUp.missingToken });
      }
      const pending: PendingVerification = {
        phone: check.phoneNumber,
        email: check.email,
        verificationToken: result.verification_token,
        redirectTo: result.redirect_to,
      };
      savePendingVerification(pending);
      toast.success(messages.signUp.successTitle, { description: messages.signUp.success });
      navigate('/phone-verification', { state: pending });
    } catch (error) {
      setSubmitting(false);
      // Only the server knows a +1 number is a US one (the check weighs too much for this page): say so at the field.
      if (error instanceof ApiError && error.message === titled(messages.signUp.invalidPhoneTitle, messages.signUp.invalidPhone)) {
        setErrors({ phone: error.message });
        return refs.phone.current?.focus();
      }
      fail(signUpFailureNotice(error));
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="space-y-5">
      {formError && <Alert tone="error" title={formError.title}>{formError.description}</Alert>}
      <Field id="sign-up-email" label="Email" error={errors.email}>
        <Input
          ref={refs.email}
          id="sign-up-email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={EMAIL_MAX_LENGTH}
          value={fields.email}
          onChange={(e) => update('email', e.target.value)}
          {...fieldAria('sign-up-email', { error: errors.email })}
        />
      </Field>
      <Field id="sign-up-phone" label="Mobile phone" help={messages.signUp.phoneHelp} error={errors.phone}>
        <Input
          ref={refs.phone}
          id="sign-up-phone"
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder="(555) 123-4567"
          maxLength={PHONE_MAX_LENGTH}
          value={fields.phone}
          onChange={(e) => update('phone', limitPhoneInput(e.target.value))}
          {...fieldAria('sign-up-phone', { error: errors.phone, help: true })}
        />
      </Field>
      <Field id="sign-up-timezone" label="Time zone" help={messages.signUp.timezoneHelp}>
        <Select
          id="sign-up-timezone"
          name="timezone"
          value={timezone}
          onChange={(e) => setTimezone(e.target.value)}
          aria-describedby="sign-up-timezone-help"
        >
          {timezoneOptions(timezone).map((zone) => (
            <option key={zone.value} value={zone.value}>
              {zone.label}
            </option>
          ))}
        </Select>
      </Field>
      <div className="space-y-2">
        <Field id="sign-up-password" label="Password" error={errors.password}>
          <PasswordInput
            ref={refs.password}
            id="sign-up-password"
            name="password"
            autoComplete="new-password"
            value={fields.password}
            onChange={(e) => update('password', e.target.value)}
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={errors.password ? 'sign-up-password-error sign-up-password-rules' : 'sign-up-password-rules'}
          />
        </Field>
        <PasswordChecklist id="sign-up-password-rules" password={fields.password} />
      </div>
      <SmsConsentField checked={fields.smsConsent} onChange={(checked) => update('smsConsent', checked)} error={errors.smsConsent} />
      <Button type="submit" size="lg" className="w-full" loading={submitting}>
        {submitting ? 'Creating account...' : 'Create Account'}
      </Button>
      <p className="text-center text-xs text-stone-500">
        We keep your number private and never sell it. Read our{' '}
        <Link to="/privacy" className={textLinkClasses}>
          Privacy Policy
        </Link>
        .
      </p>
    </form>
  );
}
