import { KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { MfaRequired } from '../../../shared/second-factor';
import { ApiError } from '../../api/errors';
import { completeWithCode, completeWithPasskey } from '../../api/second-factor';
import type { Session } from '../../api/types';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { Input } from '../../components/ui/Input';
import { securityCopy as copy } from './copy';

const failureOf = (error: unknown) => (error instanceof ApiError && error.status < 500 ? error.message : copy.failed);

/**
 * The second step of a sign-in: a code from an authenticator app, a recovery code, or a passkey,
 * as the account has them. `onSession` gets the session once it is done.
 */
export function SecondStepForm(props: { challenge: MfaRequired; onSession(session: Session): void | Promise<void>; onExpired?(): void }) {
  const { methods, mfa_token: mfaToken } = props.challenge;
  const hasCode = methods.includes('totp');
  const [mode, setMode] = useState<'code' | 'recovery_code'>('code');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function finish(work: () => Promise<Session>) {
    setBusy(true);
    setError(null);
    try {
      await props.onSession(await work());
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401 && props.onExpired) props.onExpired();
      setError(failure instanceof DOMException ? copy.passkeyCancelled : failureOf(failure));
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!value.trim()) return setError(mode === 'code' ? copy.secondStepLead : copy.recoveryCode);
    void finish(() => completeWithCode(mfaToken, mode, value));
  }

  return (
    <div className="space-y-5">
      <div>
        <h2 className="font-serif text-xl font-semibold text-ink">{copy.secondStepTitle}</h2>
        <p className="mt-1 text-sm text-stone-600">{hasCode ? copy.secondStepLead : copy.secondStepPasskeyLead}</p>
      </div>
      {error && <Alert tone="error">{error}</Alert>}
      {hasCode && (
        <form noValidate onSubmit={submit} className="space-y-4">
          {mode === 'code' ? (
            <Field id="second-step-code" label={copy.authCode}>
              <Input
                id="second-step-code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={8}
                value={value}
                onChange={(e) => setValue(e.target.value)}
                autoFocus
              />
            </Field>
          ) : (
            <Field id="second-step-recovery" label={copy.recoveryCode}>
              <Input id="second-step-recovery" autoComplete="off" autoCapitalize="none" spellCheck={false} maxLength={40} value={value} onChange={(e) => setValue(e.target.value)} autoFocus />
            </Field>
          )}
          <Button type="submit" className="w-full" loading={busy}>
            {copy.verify}
          </Button>
          {methods.includes('recovery_code') && (
            <button
              type="button"
              className="text-sm font-medium text-brand-700 hover:underline"
              onClick={() => {
                setValue('');
                setError(null);
                setMode(mode === 'code' ? 'recovery_code' : 'code');
              }}
            >
              {mode === 'code' ? copy.useRecoveryCode : copy.useAuthenticator}
            </button>
          )}
        </form>
      )}
      {methods.includes('passkey') && (
        <Button variant={hasCode ? 'secondary' : 'primary'} className="w-full" loading={busy && !hasCode} onClick={() => void finish(() => completeWithPasskey(mfaToken))}>
          <KeyRound aria-hidden="true" className="size-4" />
          {copy.usePasskey}
        </Button>
      )}
    </div>
  );
}
