import { useQueryClient } from '@tanstack/react-query';
import { Lock, LockOpen } from 'lucide-react';
import { useId, useState } from 'react';
import type { VaultView } from '../../../shared/vault';
import { vaultMessages } from '../../../shared/vault-messages';
import { ApiError } from '../../api/errors';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { ChangePassphrase } from './ChangePassphrase';
import { IDLE_LOCK_CHOICES, idleLockMinutes, lockVault, setIdleLockMinutes, type IdleLockMinutes } from './key-store';
import { UnlockForm } from './UnlockForm';
import { startTurningOff, vaultQueryKey } from './vault-api';
import { useVaultKeys } from './useVault';

const copy = vaultMessages.card;

/** The vault is on: unlock or lock it here, pick when it locks itself, change the passphrase, or turn it off. */
export function VaultOn(props: { vault: VaultView }) {
  const id = useId();
  const keys = useVaultKeys();
  const queryClient = useQueryClient();
  const [panel, setPanel] = useState<'none' | 'passphrase' | 'turn-off'>('none');
  const [idle, setIdle] = useState<IdleLockMinutes>(idleLockMinutes);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const turnOff = async () => {
    setBusy(true);
    setError(null);
    try {
      queryClient.setQueryData(vaultQueryKey, await startTurningOff());
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : copy.turnOffStopped);
      setBusy(false);
    }
  };

  return (
    <div className="space-y-4">
      <p className="text-sm text-stone-600">{copy.onLead}</p>
      <p className="flex items-center gap-2 text-sm font-semibold text-ink">
        {keys ? <LockOpen aria-hidden="true" className="size-4 text-brand-700" /> : <Lock aria-hidden="true" className="size-4 text-brand-700" />}
        {keys ? copy.unlocked : copy.locked}
      </p>
      {notice && <Alert tone="success">{notice}</Alert>}
      {!keys && <UnlockForm vault={props.vault} onUnlocked={() => setNotice(null)} />}
      {keys && panel === 'none' && (
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" onClick={lockVault}>
            <Lock aria-hidden="true" className="size-4" />
            {copy.lock}
          </Button>
          <Button variant="secondary" onClick={() => setPanel('passphrase')}>
            {copy.changePassphrase}
          </Button>
          <Button variant="ghost" onClick={() => setPanel('turn-off')}>
            {copy.turnOff}
          </Button>
        </div>
      )}
      {keys && panel === 'passphrase' && (
        <ChangePassphrase
          vault={props.vault}
          keys={keys}
          onDone={() => {
            setPanel('none');
            setNotice(copy.passphraseChanged);
          }}
        />
      )}
      {keys && panel === 'turn-off' && (
        <div className="space-y-3">
          <Alert tone="info">{copy.turnOffLead}</Alert>
          {error && <Alert tone="error">{error}</Alert>}
          <div className="flex flex-wrap gap-3">
            <Button variant="danger" loading={busy} onClick={() => void turnOff()}>
              {copy.turnOffConfirm}
            </Button>
            <Button variant="ghost" disabled={busy} onClick={() => setPanel('none')}>
              {copy.cancel}
            </Button>
          </div>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3 border-t border-stone-100 pt-4">
        <label htmlFor={`${id}-idle`} className="text-sm font-medium text-stone-700">
          {copy.idleLabel}
        </label>
        <select
          id={`${id}-idle`}
          value={idle}
          onChange={(e) => {
            const minutes = Number(e.target.value) as IdleLockMinutes;
            setIdle(minutes);
            setIdleLockMinutes(minutes);
          }}
          className="rounded-lg border border-stone-300 bg-white px-3 py-1.5 text-sm text-ink"
        >
          {IDLE_LOCK_CHOICES.map((minutes) => (
            <option key={minutes} value={minutes}>
              {copy.idleChoice(minutes)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
