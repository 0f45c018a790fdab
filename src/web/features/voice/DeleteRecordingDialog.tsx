import { AlertDialog } from 'radix-ui';
import { toast } from 'sonner';
import { buttonClasses, Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { useReturnFocus } from '../../components/ui/return-focus';
import { toastFailure } from '../journal/feedback';
import { overlayClasses, panelClasses } from '../journal/Modal';
import { useDeleteRecording } from './recordings-api';
import { voiceCopy } from './voice-copy';

/** Deleting a voice note asks first, as deleting an entry does; the dialog stays open while it runs. */
export function DeleteRecordingDialog(props: { entryId: string; recordingId: string; label: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteRecording(props.entryId, props.recordingId);
  const returnFocus = useReturnFocus(props.open);
  const confirm = async () => {
    try {
      await remove.mutateAsync();
    } catch (error) {
      toastFailure(error, voiceCopy.deleteFailed);
      return;
    }
    toast.success(voiceCopy.deleted);
    props.onOpenChange(false);
  };

  return (
    <AlertDialog.Root open={props.open} onOpenChange={(next) => !remove.isPending && props.onOpenChange(next)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClasses} />
        <AlertDialog.Content className={cn(panelClasses, 'max-w-md p-6')} {...returnFocus}>
          <AlertDialog.Title className="font-serif text-xl font-semibold text-ink">{voiceCopy.deleteTitle}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm leading-6 text-stone-600">
            {props.label}. {voiceCopy.deleteConfirm}
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses('secondary')} disabled={remove.isPending}>
              {voiceCopy.cancel}
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action: that would close the dialog before the delete is done. */}
            <Button variant="danger" onClick={() => void confirm()} loading={remove.isPending}>
              {remove.isPending ? voiceCopy.deleting : 'Delete'}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
