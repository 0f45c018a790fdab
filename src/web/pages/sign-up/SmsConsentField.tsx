import { Link } from 'react-router';
import { Checkbox } from '../../components/ui/Checkbox';
import { textLinkClasses } from '../../features/auth/AuthLayout';

/** The SMS consent checkbox with the carrier-required disclosures (DESIGN 7, spec 2). */
export function SmsConsentField(props: { checked: boolean; onChange(checked: boolean): void; error?: string }) {
  const id = 'sign-up-sms-consent';
  return (
    <div className="space-y-1.5">
      <div className="flex gap-3 rounded-xl border border-stone-200 bg-stone-50/70 p-3">
        <Checkbox
          id={id}
          name="smsConsent"
          checked={props.checked}
          onCheckedChange={(value) => props.onChange(value === true)}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? `${id}-error` : undefined}
        />
        <label htmlFor={id} className="text-xs leading-relaxed text-stone-600">
          <span className="font-medium text-stone-800">I agree to receive automated text messages from Jotline</span>, including
          journaling reminders and prompts, at the phone number above. Msg frequency varies, up to 2 msgs/day. Msg &amp; data rates
          may apply. Reply HELP for help and STOP to cancel. Consent is not a condition of purchase. See our{' '}
          <Link to="/terms" className={textLinkClasses}>
            Terms
          </Link>{' '}
          and{' '}
          <Link to="/privacy" className={textLinkClasses}>
            Privacy Policy
          </Link>
          .
        </label>
      </div>
      {props.error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600">
          {props.error}
        </p>
      )}
    </div>
  );
}
