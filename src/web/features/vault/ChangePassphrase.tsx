import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { VaultView } from '../../../shared/vault';
import { vaultMessages } from '../../../shared/vault-messages';
import { ApiError } from '../../api/errors';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { PassphraseFields, passphraseProblem } from './PassphraseFields';
import { saveWrappedKeys, vaultQueryKey } from './vault-api';
import { rewrapPassphrase, type VaultKeys } from './vault-crypto';

const copy = vaultMessages.card;

/** A new passphrase: the private key is wrapped anew under it; nothing else changes. */
export function ChangePassphrase(props: { vault: VaultView; keys: VaultKeys; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [passphrase, setPassphrase] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const found = await passphraseProblem(passphrase, again).catch(() => copy.unlockFailed);
    setProblem(found);
    if (found || busy || !props.vault.wrapped_keys || !props.vault.public_key) return;
    setBusy(true);
    setError(null);
    await new Promise((resolve) => setTimeout(resolve, 0));
    try {
      const wrapped = await rewrapPassphrase(props.keys, props.vault.wrapped_keys, passphrase);
      queryClient.setQueryData(vaultQueryKey, await saveWrappedKeys(props.vault.public_key, wrapped));
      props.onDone();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : copy.unlockFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void save(e)} className="space-y-4" aria-busy={busy}>
      <PassphraseFields label={copy.newPassphraseLabel} value={passphrase} again={again} onChange={setPassphrase} onAgainChange={setAgain} error={problem} />
      {error && <Alert tone="error">{error}</Alert>}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" loading={busy}>
          {copy.savePassphrase}
        </Button>
        <Button variant="ghost" disabled={busy} onClick={props.onDone}>
          {copy.cancel}
        </Button>
      </div>
    </form>
  );
}
