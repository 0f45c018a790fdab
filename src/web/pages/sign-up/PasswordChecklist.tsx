import { Check, Circle } from 'lucide-react';
import { PASSWORD_MIN_LENGTH } from '../../../shared/limits';
import { checkSignUpPassword, type PasswordChecks } from '../../../shared/validation';
import { cn } from '../../components/ui/cn';

const rules: Array<{ key: keyof PasswordChecks; label: string }> = [
  { key: 'minLength', label: `At least ${PASSWORD_MIN_LENGTH} characters` },
  { key: 'uppercase', label: 'An uppercase letter' },
  { key: 'lowercase', label: 'A lowercase letter' },
  { key: 'digit', label: 'A number' },
];

/** The sign-up password rules, ticked off as the person types. */
export function PasswordChecklist({ id, password }: { id: string; password: string }) {
  const checks = checkSignUpPassword(password);
  return (
    <ul id={id} aria-label="Password requirements" className="grid grid-cols-1 gap-x-4 gap-y-1 text-xs sm:grid-cols-2">
      {rules.map(({ key, label }) => {
        const met = checks[key];
        const Icon = met ? Check : Circle;
        return (
          <li key={key} className={cn('flex items-center gap-1.5', met ? 'text-brand-700' : 'text-stone-500')}>
            <Icon aria-hidden="true" className={cn('size-3.5', !met && 'scale-75')} strokeWidth={met ? 3 : 2} />
            <span>
              {label}
              <span className="sr-only">{met ? ' (met)' : ' (not yet)'}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
