import { AlertDialog } from 'radix-ui';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import { Button, buttonClasses } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { useReturnFocus } from '../../components/ui/return-focus';
import { journalCopy } from './copy';
import { toastFailure } from './feedback';
import { overlayClasses, panelClasses } from './Modal';
import { useDeleteEntry } from './queries';

/** Spec 2: deleting asks first. The dialog stays open while the delete runs. */
export function DeleteEntryDialog({ entryId, open, onOpenChange }: { entryId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteEntry(entryId);
  const returnFocus = useReturnFocus(open);
  // mutateAsync, not mutate's callbacks: the card (and this dialog) leave the list once it is gone.
  const confirm = async () => {
    try {
      await remove.mutateAsync();
    } catch (error) {
      toastFailure(error, journalCopy.deleteFailed);
      return;
    }
    toast.success(journalCopy.deletedTitle, { description: journalCopy.deleted });
    onOpenChange(false);
  };

  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !remove.isPending && onOpenChange(next)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClasses} />
        <AlertDialog.Content className={cn(panelClasses, 'max-w-md p-6')} {...returnFocus}>
          <AlertDialog.Title className="font-serif text-xl font-semibold text-ink">Delete entry</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm leading-6 text-stone-600">{messages.entries.deleteConfirm}</AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses('secondary')} disabled={remove.isPending}>
              Cancel
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action: that would close the dialog before the delete is done. */}
            <Button variant="danger" onClick={() => void confirm()} loading={remove.isPending}>
              {remove.isPending ? journalCopy.deleting : 'Delete'}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
