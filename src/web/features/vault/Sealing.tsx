import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { VaultView } from '../../../shared/vault';
import { vaultMessages } from '../../../shared/vault-messages';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { sealWholeJournal, type Progress } from './migrate';
import { ProgressBar } from './Progress';
import { vaultQueryKey } from './vault-api';

const copy = vaultMessages.card;

/** The vault is on and the journal already written is being sealed: carries on at once, batch by batch. */
export function Sealing(props: { vault: VaultView }) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<Progress>({ done: props.vault.sealed_entries, total: props.vault.total_entries });
  const [run, setRun] = useState(0);
  const [stopped, setStopped] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    setStopped(false);
    sealWholeJournal(setProgress, controller.signal)
      .then((view) => {
        queryClient.setQueryData(vaultQueryKey, view);
        return queryClient.invalidateQueries({ queryKey: ['journal'] });
      })
      .catch(() => {
        if (!controller.signal.aborted) setStopped(true);
      });
    return () => controller.abort();
  }, [queryClient, run]);

  return (
    <div className="space-y-4">
      <ProgressBar label={copy.sealing} done={progress.done} total={progress.total} text={copy.sealedOf(progress.done, progress.total)} />
      <p className="text-sm text-stone-600">{copy.sealingLeave}</p>
      {stopped && (
        <>
          <Alert tone="error">{copy.sealingStopped}</Alert>
          <Button onClick={() => setRun((n) => n + 1)}>{copy.continueSealing}</Button>
        </>
      )}
    </div>
  );
}
