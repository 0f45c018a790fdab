import { useEffect, useId, useState } from 'react';
import { vaultMessages } from '../../../shared/vault-messages';
import { Field } from '../../components/ui/Field';
import { PasswordInput } from '../../components/ui/PasswordInput';
import { loadJudge, type Judge, type Strength } from './strength';

const copy = vaultMessages.card;
const LEVEL: Record<Strength, number> = { empty: 0, weak: 1, fair: 2, good: 3, strong: 4 };
const COLOR: Record<Strength, string> = { empty: 'bg-stone-200', weak: 'bg-red-500', fair: 'bg-amber-500', good: 'bg-emerald-500', strong: 'bg-emerald-700' };

/** Why a new passphrase cannot be used yet, or null when it can (fetching zxcvbn if need be). */
export async function passphraseProblem(passphrase: string, again: string): Promise<string | null> {
  const judge = await loadJudge();
  if (!judge(passphrase).acceptable) return copy.tooWeak;
  if (passphrase.normalize('NFC') !== again.normalize('NFC')) return copy.mismatch;
  return null;
}

/** zxcvbn, once fetched (null until then, or should the download fail: the submit says so). */
function useJudge(): Judge | null {
  const [judge, setJudge] = useState<Judge | null>(null);
  useEffect(() => {
    let current = true;
    loadJudge().then(
      (loaded) => current && setJudge(() => loaded),
      () => {},
    );
    return () => {
      current = false;
    };
  }, []);
  return judge;
}

/** A new passphrase typed twice, with zxcvbn's judgement of it and its advice shown as it is typed. */
export function PassphraseFields(props: {
  label: string;
  value: string;
  again: string;
  onChange: (value: string) => void;
  onAgainChange: (value: string) => void;
  /** The problem to show (after a submit), if any: under the second field when they differ, else under the first. */
  error: string | null;
}) {
  const id = useId();
  const judge = useJudge();
  const judgement = props.value && judge ? judge(props.value) : null;
  const strength = judgement?.strength ?? 'empty';
  const feedback = judgement && (judgement.warning || judgement.suggestions.length) ? judgement : null;
  const weakError = props.error && props.error !== copy.mismatch ? props.error : undefined;
  const againError = props.error === copy.mismatch ? props.error : undefined;
  return (
    <div className="space-y-4">
      <div className="space-y-2">
        <Field id={`${id}-new`} label={props.label} help={copy.passphraseHelp} error={weakError}>
          <PasswordInput
            id={`${id}-new`}
            autoComplete="new-password"
            value={props.value}
            onChange={(e) => props.onChange(e.target.value)}
            aria-invalid={weakError ? true : undefined}
            aria-describedby={`${id}-strength ${feedback ? `${id}-feedback ` : ''}${id}-new-${weakError ? 'error' : 'help'}`}
          />
        </Field>
        <div id={`${id}-strength`} aria-live="polite" className="flex items-center gap-3">
          <div aria-hidden="true" className="flex flex-1 gap-1">
            {[1, 2, 3, 4].map((level) => (
              <span key={level} className={`h-1.5 flex-1 rounded-full ${LEVEL[strength] >= level ? COLOR[strength] : 'bg-stone-200'}`} />
            ))}
          </div>
          <span className="w-20 text-right text-xs font-medium text-stone-600">{strength === 'empty' ? '' : `${copy.strengthLabel}: ${copy.strength[strength]}`}</span>
        </div>
        {feedback && (
          <div id={`${id}-feedback`} className="text-xs text-stone-600">
            {feedback.warning && <p className="font-medium text-red-700">{feedback.warning}</p>}
            {feedback.suggestions.length > 0 && (
              <ul className="mt-0.5 list-disc space-y-0.5 pl-4">
                {feedback.suggestions.map((suggestion) => (
                  <li key={suggestion}>{suggestion}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      <Field id={`${id}-again`} label={copy.passphraseAgainLabel} error={againError}>
        <PasswordInput
          id={`${id}-again`}
          autoComplete="new-password"
          value={props.again}
          onChange={(e) => props.onAgainChange(e.target.value)}
          aria-invalid={againError ? true : undefined}
          aria-describedby={againError ? `${id}-again-error` : undefined}
        />
      </Field>
    </div>
  );
}
