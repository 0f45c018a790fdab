import { toast } from 'sonner';
import { ConfirmDeleteDialog } from '../journal/ConfirmDeleteDialog';
import { toastFailure } from '../journal/feedback';
import { useDeleteRecording } from './recordings-api';
import { voiceCopy } from './voice-copy';

/** Deleting a voice note asks first, as deleting an entry does. */
export function DeleteRecordingDialog(props: { entryId: string; recordingId: string; label: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteRecording(props.entryId, props.recordingId);
  const confirm = async () => {
    try {
      await remove.mutateAsync();
    } catch (error) {
      toastFailure(error, voiceCopy.deleteFailed);
      return false;
    }
    toast.success(voiceCopy.deleted);
    return true;
  };
  return (
    <ConfirmDeleteDialog
      open={props.open}
      onOpenChange={props.onOpenChange}
      title={voiceCopy.deleteTitle}
      description={`${props.label}. ${voiceCopy.deleteConfirm}`}
      busy={remove.isPending}
      busyLabel={voiceCopy.deleting}
      onConfirm={confirm}
    />
  );
}
