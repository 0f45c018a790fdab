import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { journalCopy } from './copy';
import { toastFailure } from './feedback';
import { useDeleteEntry } from './queries';

/** Spec 2: deleting an entry asks first. */
export function DeleteEntryDialog({ entryId, open, onOpenChange }: { entryId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteEntry(entryId);
  // mutateAsync, not mutate's callbacks: the card (and this dialog) leave the list once it is gone.
  const confirm = async () => {
    try {
      await remove.mutateAsync();
    } catch (error) {
      toastFailure(error, journalCopy.deleteFailed);
      return false;
    }
    toast.success(journalCopy.deletedTitle, { description: journalCopy.deleted });
    return true;
  };
  return (
    <ConfirmDeleteDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete entry"
      description={messages.entries.deleteConfirm}
      busy={remove.isPending}
      busyLabel={journalCopy.deleting}
      onConfirm={confirm}
    />
  );
}
