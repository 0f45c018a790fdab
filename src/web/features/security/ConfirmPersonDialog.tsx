import { AlertDialog } from 'radix-ui';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { apiRequest } from '../../api/client';
import { ApiError } from '../../api/errors';
import { setProofPrompt } from '../../api/proof';
import { Alert } from '../../components/ui/Alert';
import { Button, buttonClasses } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { PasswordInput } from '../../components/ui/PasswordInput';
import { overlayClasses, panelClasses } from '../journal/Modal';
import { securityCopy } from './copy';

interface Asking {
  message: string;
  answer: (confirmed: boolean) => void;
}

/**
 * Asks for the password when a change needs a proof of the person (api/proof.ts): the vault's keys,
 * turning it off, deleting the account. Confirmed, the change goes on; cancelled, it does not.
 */
export function ConfirmPersonDialog() {
  const id = useId();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setProofPrompt((message) => new Promise<boolean>((answer) => setAsking({ message, answer })));
    return () => setProofPrompt(null);
  }, []);

  const close = (confirmed: boolean) => {
    asking?.answer(confirmed);
    setAsking(null);
    setPassword('');
    setError(null);
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!password || busy) return;
    setBusy(true);
    setError(null);
    try {
      await apiRequest('POST', '/api/auth/confirm', { body: { password } });
      close(true);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : securityCopy.confirmFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AlertDialog.Root open={asking !== null} onOpenChange={(open) => !open && !busy && close(false)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={cn(overlayClasses, 'z-50')} />
        <AlertDialog.Content className={cn(panelClasses, 'z-50 max-w-md p-6')}>
          <form onSubmit={(e) => void confirm(e)} className="space-y-4">
            <AlertDialog.Title className="font-serif text-xl font-semibold text-ink">{securityCopy.confirmTitle}</AlertDialog.Title>
            <AlertDialog.Description className="text-sm leading-6 text-stone-600">{asking?.message}</AlertDialog.Description>
            <div className="space-y-1.5">
              <label htmlFor={`${id}-password`} className="block text-sm font-medium text-ink">
                {securityCopy.password}
              </label>
              <PasswordInput id={`${id}-password`} value={password} autoComplete="current-password" autoFocus onChange={(e) => setPassword(e.target.value)} />
            </div>
            {error && <Alert tone="error">{error}</Alert>}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <AlertDialog.Cancel className={buttonClasses('secondary')} disabled={busy}>
                {securityCopy.cancel}
              </AlertDialog.Cancel>
              <Button type="submit" disabled={!password} loading={busy}>
                {securityCopy.confirm}
              </Button>
            </div>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
