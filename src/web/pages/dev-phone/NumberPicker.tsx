import { useState, type FormEvent } from 'react';
import { normalizeUsPhone } from '../../../shared/phone';
import { messages } from '../../../shared/messages';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { Input } from '../../components/ui/Input';
import { formatUsPhone, randomUsPhone } from './phone-format';

/** Chooses which US number this browser pretends to be. */
export function NumberPicker({ phone, onChange }: { phone: string | null; onChange(phone: string): void }) {
  const [draft, setDraft] = useState(phone ? formatUsPhone(phone) : '');
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const normalized = normalizeUsPhone(draft);
    if (!normalized) {
      setError(draft.trim() ? messages.signUp.invalidPhone : messages.devPhone.phoneRequired);
      return;
    }
    setError(undefined);
    setDraft(formatUsPhone(normalized));
    onChange(normalized);
  };

  const pickRandom = () => {
    const next = randomUsPhone();
    setError(undefined);
    setDraft(formatUsPhone(next));
    onChange(next);
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-2" aria-label="Choose this phone's number">
      <Field id="dev-phone-number" label="This phone's number (US)" error={error} help="Use the number you signed up with to text as that account.">
        <div className="flex flex-wrap gap-2">
          <Input
            id="dev-phone-number"
            type="tel"
            inputMode="tel"
            autoComplete="off"
            placeholder="(202) 555-0143"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'dev-phone-number-error' : 'dev-phone-number-help'}
            className="min-w-0 flex-1 basis-44"
          />
          <Button type="submit" variant="primary">
            Use number
          </Button>
          <Button variant="secondary" onClick={pickRandom}>
            Random number
          </Button>
        </div>
      </Field>
    </form>
  );
}
