import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { vaultMessages } from '../../../shared/vault-messages';
import { ApiError } from '../../api/errors';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Checkbox } from '../../components/ui/Checkbox';
import { unlockVault } from './key-store';
import { PassphraseFields, passphraseProblem } from './PassphraseFields';
import { ConfirmRecoveryCode, pickGroup, ShowRecoveryCode } from './RecoveryCode';
import { vaultQueryKey, turnOnVault } from './vault-api';
import { createVault, type NewVault } from './vault-crypto';

const copy = vaultMessages.card;

type Step = 'intro' | 'passphrase' | 'code' | 'confirm';

/** What the server still sees, said plainly before anything is turned on. */
export function ServerSees() {
  return (
    <div className="text-sm text-stone-600">
      <p>{vaultMessages.serverCannotSee}</p>
      <p className="mt-3 font-medium text-ink">{copy.serverSeesTitle}</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {vaultMessages.serverSees.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Setting up: the warning, a passphrase typed twice, the recovery code shown once and confirmed,
 * then PUT /api/vault. The keys are made in this browser; the server gets the public key and the
 * private key wrapped.
 */
export function VaultSetup() {
  const id = useId();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>('intro');
  const [understood, setUnderstood] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const made = useRef<NewVault | null>(null);
  const [group, setGroup] = useState(1);

  const makeKeys = async (event: FormEvent) => {
    event.preventDefault();
    const found = await passphraseProblem(passphrase, again).catch(() => copy.unlockFailed);
    setProblem(found);
    if (found || busy) return;
    setBusy(true);
    await new Promise((resolve) => setTimeout(resolve, 0)); // paint "Making your keys" first
    try {
      made.current = await createVault(passphrase);
      setPassphrase('');
      setAgain('');
      setGroup(pickGroup());
      setStep('code');
    } catch {
      setError(copy.unlockFailed);
    } finally {
      setBusy(false);
    }
  };

  const turnOn = async () => {
    const vault = made.current;
    if (!vault || busy) return;
    setBusy(true);
    setError(null);
    try {
      const view = await turnOnVault(vault.publicKey, vault.wrappedKeys);
      unlockVault(vault.keys);
      made.current = null;
      queryClient.setQueryData(vaultQueryKey, view);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : copy.sealingStopped);
      setBusy(false);
    }
  };

  if (step === 'intro') {
    return (
      <div className="space-y-4">
        <ServerSees />
        <Alert tone="error">{vaultMessages.lossWarning}</Alert>
        <label htmlFor={`${id}-understand`} className="flex items-start gap-3 text-sm text-ink">
          <Checkbox id={`${id}-understand`} checked={understood} onCheckedChange={(value) => setUnderstood(value === true)} />
          <span>{copy.understand}</span>
        </label>
        <Button disabled={!understood} onClick={() => setStep('passphrase')}>
          {copy.setUp}
        </Button>
      </div>
    );
  }
  if (step === 'passphrase') {
    return (
      <form onSubmit={(e) => void makeKeys(e)} className="space-y-4" aria-busy={busy}>
        <PassphraseFields label={copy.passphraseLabel} value={passphrase} again={again} onChange={setPassphrase} onAgainChange={setAgain} error={problem} />
        {busy && <p role="status" className="text-sm text-stone-600">{copy.makingKeys}</p>}
        {error && <Alert tone="error">{error}</Alert>}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" loading={busy}>
            {copy.continue}
          </Button>
          <Button variant="ghost" disabled={busy} onClick={() => setStep('intro')}>
            {copy.cancel}
          </Button>
        </div>
      </form>
    );
  }
  const code = made.current?.recoveryCode ?? '';
  if (step === 'code') return <ShowRecoveryCode code={code} onSaved={() => setStep('confirm')} />;
  return (
    <div className="space-y-4">
      <ConfirmRecoveryCode code={code} group={group} busy={busy} onConfirmed={() => void turnOn()} onBack={() => setStep('code')} />
      {error && <Alert tone="error">{error}</Alert>}
    </div>
  );
}
