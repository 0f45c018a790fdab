import { useQueryClient } from '@tanstack/react-query';
import { Download, Trash2, TriangleAlert } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { DeleteAccountResponse } from '../../../shared/account-deletion';
import { messages } from '../../../shared/messages';
import { apiRequest } from '../../api/client';
import { ApiError } from '../../api/errors';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Input } from '../../components/ui/Input';
import { useAuth } from '../../features/auth/auth-context';
import { ExportModal } from '../../features/journal';
import { SettingsSection } from './SettingsSection';

const copy = messages.accountDeletion;
const CONFIRM_WORD = 'DELETE';

/**
 * Settings' danger zone: export first, then delete the account for good. The server cancels
 * billing, deletes everything and ends every session; here the session is dropped and the user
 * lands on the home page with a toast.
 */
export function DeleteAccountCard() {
  const [exportOpen, setExportOpen] = useState(false);
  return (
    <SettingsSection icon={TriangleAlert} title={copy.title} description={copy.description} className="border-red-200">
      <div className="px-5 pt-4 pb-5 sm:px-7 sm:pb-6">
        <p className="text-sm text-stone-600">{copy.exportHint}</p>
        <div className="mt-4 flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => setExportOpen(true)}>
            <Download aria-hidden="true" className="size-4" />
            {copy.exportFirst}
          </Button>
          <ConfirmAccountDeletion />
        </div>
      </div>
      <ExportModal open={exportOpen} onOpenChange={setExportOpen} />
    </SettingsSection>
  );
}

/** The button and the dialog that asks for DELETE typed exactly, then deletes the account. */
function ConfirmAccountDeletion() {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { signOut } = useAuth();
  const [open, setOpenState] = useState(false);
  const [typed, setTyped] = useState('');
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const matches = typed === CONFIRM_WORD;

  const setOpen = (open: boolean) => {
    if (deleting) return;
    if (!open) {
      setTyped('');
      setError(null);
    }
    setOpenState(open);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!matches || deleting) return;
    setDeleting(true);
    setError(null);
    try {
      await apiRequest<DeleteAccountResponse>('DELETE', '/api/auth/user', { body: { confirmationText: typed } });
    } catch (failure) {
      setDeleting(false);
      setError(failure instanceof ApiError ? failure.message : copy.failed);
      return;
    }
    // Every session is gone on the server; drop this one and everything the app still holds.
    const signedOut = signOut('local');
    navigate('/', { replace: true });
    queryClient.clear();
    // One message for what happened: the account is gone (not the usual "Signed out").
    toast.dismiss();
    toast.success(copy.deleted, { description: copy.deletedDescription });
    await signedOut;
  };

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button variant="danger">
          <Trash2 aria-hidden="true" className="size-4" />
          {copy.open}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-ink/40 backdrop-blur-[2px]" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-stone-200 bg-paper p-5 shadow-2xl focus:outline-none sm:p-7">
          <Dialog.Title className="font-serif text-2xl font-semibold text-ink">{copy.dialogTitle}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-stone-600">{copy.dialogBody}</Dialog.Description>
          <form className="mt-5 space-y-4" onSubmit={(e) => void submit(e)} aria-busy={deleting}>
            <div>
              <label htmlFor={`${id}-confirm`} className="mb-1.5 block text-sm font-medium text-stone-700">
                {copy.confirmLabel}
              </label>
              <Input
                id={`${id}-confirm`}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                placeholder={CONFIRM_WORD}
                className="font-mono"
                disabled={deleting}
              />
            </div>
            {error && <Alert tone="error">{error}</Alert>}
            <div className="flex flex-wrap justify-end gap-2">
              <Dialog.Close asChild>
                <Button variant="secondary" disabled={deleting}>
                  {copy.cancel}
                </Button>
              </Dialog.Close>
              <Button type="submit" variant="danger" disabled={!matches} loading={deleting}>
                {deleting ? copy.deleting : copy.confirm}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
