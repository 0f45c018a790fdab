import { AlertDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { Button, buttonClasses } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { useReturnFocus } from '../../components/ui/return-focus';
import { overlayClasses, panelClasses } from './Modal';

/**
 * Spec 2: deleting asks first. The dialog stays open, and cannot be dismissed, while the delete
 * runs; `onConfirm` answers whether it is done, and only then does the dialog close.
 */
export function ConfirmDeleteDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  busy: boolean;
  busyLabel: string;
  onConfirm: () => Promise<boolean>;
}) {
  const { open, onOpenChange, busy } = props;
  const returnFocus = useReturnFocus(open);
  const confirm = async () => {
    if (await props.onConfirm()) onOpenChange(false);
  };
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClasses} />
        <AlertDialog.Content className={cn(panelClasses, 'max-w-md p-6')} {...returnFocus}>
          <AlertDialog.Title className="font-serif text-xl font-semibold text-ink">{props.title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm leading-6 text-stone-600">{props.description}</AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses('secondary')} disabled={busy}>
              Cancel
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action: that would close the dialog before the delete is done. */}
            <Button variant="danger" onClick={() => void confirm()} loading={busy}>
              {busy ? props.busyLabel : 'Delete'}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
