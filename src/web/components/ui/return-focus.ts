import { useState } from 'react';

const focused = () => (typeof document !== 'undefined' && document.activeElement instanceof HTMLElement ? document.activeElement : null);

/**
 * Props for a Radix dialog's Content that is opened from state rather than by a Dialog.Trigger: Radix
 * then has no trigger to give focus back to, so this remembers what had focus when the dialog opened
 * and returns focus there when it closes (WAI-ARIA dialog pattern). The element is read while the
 * opening render runs, before an autofocused field inside the dialog takes focus.
 */
export function useReturnFocus(open: boolean) {
  // A dialog mounted already open (one loaded when first opened) remembers what had focus then.
  const [opener, setOpener] = useState<HTMLElement | null>(() => (open ? focused() : null));
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setOpener(focused());
  }
  return {
    onCloseAutoFocus: (event: Event) => {
      if (!opener?.isConnected) return;
      event.preventDefault();
      opener.focus();
    },
  };
}
