import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { TotpSetup as Setup } from '../../../shared/second-factor';
import { ApiError } from '../../api/errors';
import { beginTotp, confirmTotp } from '../../api/second-factor';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { Input } from '../../components/ui/Input';
import { securityCopy as copy } from './copy';
import { QrCode } from './QrCode';

const failureOf = (error: unknown) => (error instanceof ApiError && error.status < 500 ? error.message : copy.failed);

/** The recovery codes, shown once after TOTP is turned on. */
export function RecoveryCodes(props: { codes: string[]; onDone(): void }) {
  return (
    <div className="space-y-4">
      <Alert tone="success" title={copy.recoveryTitle}>
        {copy.recoveryLead}
      </Alert>
      <ul aria-label={copy.recoveryCodesLabel} className="grid grid-cols-2 gap-2 rounded-lg bg-stone-50 p-4 font-mono text-sm">
        {props.codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <Button
          variant="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(props.codes.join('\n')).then(() => toast.success(copy.codesCopied));
          }}
        >
          {copy.copyCodes}
        </Button>
        <Button onClick={props.onDone}>{copy.savedCodes}</Button>
      </div>
    </div>
  );
}

/**
 * Setting up an authenticator app: a new secret as a QR code (drawn here) and as text, then a code
 * from the app turns it on and the recovery codes are shown once.
 */
export function TotpSetupFlow(props: { onDone(): void; onCancel?(): void }) {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start() {
    setBusy(true);
    setError(null);
    try {
      setSetup(await beginTotp());
    } catch (failure) {
      setError(failureOf(failure));
    } finally {
      setBusy(false);
    }
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setCodes(await confirmTotp(code.replace(/\s+/g, '')));
      toast.success(copy.totpTurnedOn);
    } catch (failure) {
      setError(failureOf(failure));
    } finally {
      setBusy(false);
    }
  }

  if (codes) return <RecoveryCodes codes={codes} onDone={props.onDone} />;
  if (!setup) {
    return (
      <div className="space-y-3">
        {error && <Alert tone="error">{error}</Alert>}
        <Button onClick={() => void start()} loading={busy}>
          {copy.setUpTotp}
        </Button>
      </div>
    );
  }
  return (
    <form noValidate onSubmit={confirm} className="space-y-4">
      <p className="text-sm text-stone-600">{copy.scanLead}</p>
      <QrCode value={setup.otpauth_url} label={copy.qrLabel} />
      <div>
        <p className="text-xs font-medium text-stone-500">{copy.setupKey}</p>
        <code data-testid="totp-secret" className="mt-1 block break-all rounded bg-stone-50 px-2 py-1 font-mono text-sm">
          {setup.secret}
        </code>
      </div>
      {error && <Alert tone="error">{error}</Alert>}
      <Field id="totp-setup-code" label={copy.authCode}>
        <Input id="totp-setup-code" inputMode="numeric" autoComplete="one-time-code" maxLength={8} value={code} onChange={(e) => setCode(e.target.value)} />
      </Field>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" loading={busy}>
          {copy.turnOn}
        </Button>
        {props.onCancel && (
          <Button type="button" variant="ghost" onClick={props.onCancel}>
            {copy.cancel}
          </Button>
        )}
      </div>
    </form>
  );
}
