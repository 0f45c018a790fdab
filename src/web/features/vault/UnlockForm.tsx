import { useId, useState, type FormEvent } from 'react';
import type { VaultView } from '../../../shared/vault';
import { vaultMessages } from '../../../shared/vault-messages';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { Input } from '../../components/ui/Input';
import { PasswordInput } from '../../components/ui/PasswordInput';
import { unlockVault } from './key-store';
import { isWellFormedRecoveryCode } from './recovery-code';
import { unlockWithPassphrase, unlockWithRecoveryCode, WrongSecretError } from './vault-crypto';

const copy = vaultMessages.card;

/** Asks for the vault passphrase (or the recovery code) and keeps the keys in this tab. */
export function UnlockForm(props: { vault: VaultView; onUnlocked?: () => void }) {
  const id = useId();
  const [withCode, setWithCode] = useState(false);
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !props.vault.wrapped_keys || !props.vault.public_key) return;
    if (withCode && !isWellFormedRecoveryCode(secret)) return setError(copy.malformedCode);
    setBusy(true);
    setError(null);
    // Argon2id holds the main thread for about a second: let "Unlocking…" paint first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    try {
      const unlock = withCode ? unlockWithRecoveryCode : unlockWithPassphrase;
      unlockVault(await unlock(props.vault.wrapped_keys, secret, props.vault.public_key));
      setSecret('');
      props.onUnlocked?.();
    } catch (failure) {
      setError(failure instanceof WrongSecretError ? (withCode ? copy.wrongCode : copy.wrongPassphrase) : copy.unlockFailed);
    } finally {
      setBusy(false);
    }
  };

  const Control = withCode ? Input : PasswordInput;
  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-3" aria-busy={busy}>
      <Field id={id} label={withCode ? copy.codeLabel : copy.passphraseLabel}>
        <Control
          id={id}
          autoComplete={withCode ? 'off' : 'current-password'}
          spellCheck={false}
          className={withCode ? 'font-mono uppercase' : undefined}
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          aria-invalid={error ? true : undefined}
        />
      </Field>
      {error && <Alert tone="error">{error}</Alert>}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" loading={busy} disabled={!secret}>
          {busy ? copy.unlocking : copy.unlock}
        </Button>
        <Button
          variant="ghost"
          disabled={busy}
          onClick={() => {
            setWithCode((v) => !v);
            setSecret('');
            setError(null);
          }}
        >
          {withCode ? copy.usePassphrase : copy.useCode}
        </Button>
      </div>
    </form>
  );
}
