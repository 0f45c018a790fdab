import { useQueryClient } from '@tanstack/react-query';
import { Lock } from 'lucide-react';
import { useEffect } from 'react';
import { vaultMessages } from '../../../../shared/vault-messages';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { setVaultJournal } from '../../journal/vault-mode';
import { UnlockForm } from '../UnlockForm';
import { useVault } from '../useVault';

const copy = vaultMessages.journal;

/** In place of the journal while its vault is locked in this tab: unlock by passphrase or recovery code. */
export function VaultLocked() {
  return (
    <section aria-labelledby="vault-locked-heading" className="mx-auto max-w-xl rounded-2xl border border-stone-200 bg-white px-6 py-8 shadow-sm sm:px-10">
      <Lock aria-hidden="true" className="size-8 text-brand-700" />
      <h2 id="vault-locked-heading" className="mt-4 font-serif text-2xl font-semibold text-ink">
        {copy.lockedTitle}
      </h2>
      <p className="mt-2 text-sm leading-6 text-stone-600">{copy.lockedLead}</p>
      <div className="mt-6">
        <VaultUnlock />
      </div>
    </section>
  );
}

/**
 * The unlock itself (passphrase or recovery code), wherever the locked vault is in the way: in place
 * of the journal, and in the export dialog. Unlocking reads the journal again.
 */
export function VaultUnlock() {
  const vault = useVault();
  const queryClient = useQueryClient();
  const off = vault.data?.state === 'off';
  useEffect(() => {
    // Turned off meanwhile (in another tab): the journal is the server's to show again.
    if (off) setVaultJournal(false);
  }, [off]);

  if (vault.data?.wrapped_keys) return <UnlockForm vault={vault.data} onUnlocked={() => void queryClient.invalidateQueries({ queryKey: ['journal'] })} />;
  if (vault.isError) {
    return (
      <Button variant="secondary" onClick={() => void vault.refetch()}>
        {vaultMessages.card.retry}
      </Button>
    );
  }
  return (
    <div className="flex items-center gap-2 text-sm text-stone-500">
      <Spinner className="size-4" label={copy.loading} />
      {copy.loading}
    </div>
  );
}
