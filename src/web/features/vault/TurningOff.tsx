import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import type { VaultView } from '../../../shared/vault';
import { vaultMessages } from '../../../shared/vault-messages';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { lockVault } from './key-store';
import { openWholeJournal, type Progress } from './migrate';
import { ProgressBar } from './Progress';
import { UnlockForm } from './UnlockForm';
import { vaultQueryKey } from './vault-api';
import { useVaultKeys } from './useVault';

const copy = vaultMessages.card;

/** Opens the sealed journal in this tab and gives it back to the server, then the vault is gone. */
export function TurningOff(props: { vault: VaultView }) {
  const keys = useVaultKeys();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<Progress>({ done: props.vault.total_entries - props.vault.sealed_entries, total: props.vault.total_entries });
  const [run, setRun] = useState(0);
  const [stopped, setStopped] = useState(false);

  useEffect(() => {
    if (!keys) return;
    const controller = new AbortController();
    setStopped(false);
    openWholeJournal(keys, props.vault, setProgress, controller.signal)
      .then(async () => {
        await queryClient.invalidateQueries({ queryKey: vaultQueryKey });
        await queryClient.invalidateQueries({ queryKey: ['journal'] });
        // The vault is gone: its keys open nothing any more.
        lockVault();
        // The card goes back to "Set up": say in words that the vault is off.
        toast.success(copy.turnedOff);
      })
      .catch(() => {
        if (!controller.signal.aborted) setStopped(true);
      });
    return () => controller.abort();
    // Started once per unlock or retry; the view it starts from is read then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keys, run, queryClient]);

  if (!keys) {
    return (
      <div className="space-y-4">
        <p className="text-sm text-stone-600">{copy.turnOffStopped}</p>
        <UnlockForm vault={props.vault} />
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <ProgressBar label={copy.turningOff} done={progress.done} total={progress.total} text={copy.openedOf(progress.done, progress.total)} />
      {stopped && (
        <>
          <Alert tone="error">{copy.turnOffStopped}</Alert>
          <Button onClick={() => setRun((n) => n + 1)}>{copy.continueTurningOff}</Button>
        </>
      )}
    </div>
  );
}
