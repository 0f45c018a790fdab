import { Download, Printer } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { vaultMessages } from '../../../shared/vault-messages';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { Input } from '../../components/ui/Input';
import { normalizeRecoveryCode, RECOVERY_GROUPS, recoveryGroup } from './recovery-code';

const copy = vaultMessages.card;

function downloadCode(code: string): void {
  const url = URL.createObjectURL(new Blob([copy.codeFile(code)], { type: 'text/plain' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: copy.codeFileName });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function printCode(code: string): void {
  const page = window.open('', '_blank', 'width=600,height=400');
  if (!page) return;
  const text = page.document.createElement('pre');
  text.textContent = copy.codeFile(code);
  page.document.body.append(text);
  page.print();
}

/** The code, shown once, with ways to keep it. */
export function ShowRecoveryCode(props: { code: string; onSaved: () => void }) {
  return (
    <div className="space-y-4">
      <h3 className="font-serif text-lg font-semibold text-ink">{copy.codeTitle}</h3>
      <p className="text-sm text-stone-600">{copy.codeLead}</p>
      <p aria-label={copy.codeTitle} className="rounded-xl border border-stone-300 bg-stone-50 px-4 py-3 text-center font-mono text-lg tracking-wider break-all text-ink select-all">
        {props.code}
      </p>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={() => downloadCode(props.code)}>
          <Download aria-hidden="true" className="size-4" />
          {copy.download}
        </Button>
        <Button variant="secondary" onClick={() => printCode(props.code)}>
          <Printer aria-hidden="true" className="size-4" />
          {copy.print}
        </Button>
        <Button onClick={props.onSaved}>{copy.saved}</Button>
      </div>
    </div>
  );
}

/** Proof the code was kept: one of its groups, typed back. */
export function ConfirmRecoveryCode(props: { code: string; group: number; busy: boolean; onConfirmed: () => void; onBack: () => void }) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [wrong, setWrong] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (normalizeRecoveryCode(typed) !== recoveryGroup(props.code, props.group)) return setWrong(true);
    props.onConfirmed();
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      <Field id={id} label={copy.confirmLabel(props.group)} help={copy.confirmHelp} error={wrong ? copy.confirmWrong(props.group) : undefined}>
        <Input
          id={id}
          autoComplete="off"
          spellCheck={false}
          className="font-mono uppercase"
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setWrong(false);
          }}
          aria-invalid={wrong || undefined}
          aria-describedby={wrong ? `${id}-error` : `${id}-help`}
        />
      </Field>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" loading={props.busy}>
          {copy.turnOn}
        </Button>
        <Button variant="ghost" onClick={props.onBack} disabled={props.busy}>
          {copy.backToCode}
        </Button>
      </div>
    </form>
  );
}

/** Which group to ask for: any of the five. */
export const pickGroup = () => 1 + Math.floor(Math.random() * RECOVERY_GROUPS);
