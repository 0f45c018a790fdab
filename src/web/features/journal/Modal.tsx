import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useEffect, type ReactNode } from 'react';
import { toast } from 'sonner';
import { cn } from '../../components/ui/cn';
import { useReturnFocus } from '../../components/ui/return-focus';

export const overlayClasses = 'fixed inset-0 z-40 bg-ink/40 backdrop-blur-[2px]';
export const panelClasses =
  'fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-stone-200 bg-paper shadow-2xl focus:outline-none';

/**
 * A Radix dialog in the journal's style: focus moves in and stays in, Escape and the close button
 * close it, focus returns to what opened it.
 */
export function Modal(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const returnFocus = useReturnFocus(props.open);
  // What the toasts said was about what came before; the dialog gets the whole screen.
  useEffect(() => {
    if (props.open) toast.dismiss();
  }, [props.open]);
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={overlayClasses} />
        <Dialog.Content
          className={cn(panelClasses, 'max-w-xl p-5 sm:p-7', props.className)}
          {...(props.description ? {} : { 'aria-describedby': undefined })}
          {...returnFocus}
        >
          <div className="flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="font-serif text-2xl font-semibold text-ink">{props.title}</Dialog.Title>
              {props.description && <Dialog.Description className="mt-1 text-sm text-stone-600">{props.description}</Dialog.Description>}
            </div>
            <Dialog.Close
              aria-label="Close"
              className="-mt-1 -mr-2 flex size-10 shrink-0 items-center justify-center rounded-full text-stone-500 hover:bg-stone-100 hover:text-ink"
            >
              <X aria-hidden="true" className="size-5" />
            </Dialog.Close>
          </div>
          <div className="mt-5">{props.children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
