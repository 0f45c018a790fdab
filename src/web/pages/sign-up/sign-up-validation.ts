import { messages, titled } from '../../../shared/messages';
import { normalizeUsPhone } from '../../../shared/phone';
import { cleanEmail, isEmailShaped, isStrongSignUpPassword, isSuspiciousInput } from '../../../shared/validation';

export interface SignUpFields {
  email: string;
  phone: string;
  password: string;
  smsConsent: boolean;
}

export type SignUpErrors = Partial<Record<keyof SignUpFields | 'form', string>>;

type SignUpCheck =
  | { ok: true; email: string; phoneNumber: string }
  | { ok: false; errors: SignUpErrors };

/** Spec 5 (sign-up), in the order a person reads the form. */
export function checkSignUp(fields: SignUpFields): SignUpCheck {
  if (isSuspiciousInput(fields.email) || isSuspiciousInput(fields.phone)) {
    return { ok: false, errors: { form: titled(messages.signUp.suspiciousInputTitle, messages.signUp.suspiciousInput) } };
  }
  const errors: SignUpErrors = {};
  const email = cleanEmail(fields.email);
  if (!email) errors.email = messages.signUp.emailRequired;
  else if (!isEmailShaped(email)) errors.email = messages.signIn.invalidEmail;
  const phoneNumber = normalizeUsPhone(fields.phone);
  if (!phoneNumber) errors.phone = titled(messages.signUp.invalidPhoneTitle, messages.signUp.invalidPhone);
  if (!isStrongSignUpPassword(fields.password)) errors.password = messages.signUp.weakPassword;
  if (!fields.smsConsent) errors.smsConsent = titled(messages.signUp.consentRequiredTitle, messages.signUp.consentRequired);
  if (Object.keys(errors).length > 0 || !phoneNumber) return { ok: false, errors };
  return { ok: true, email, phoneNumber };
}
