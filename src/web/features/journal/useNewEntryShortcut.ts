import { useEffect, useRef } from 'react';

/** Where a typed `n` is text, not a shortcut. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target.closest('input, textarea, select, [contenteditable="true"], [role="textbox"], [role="combobox"]') !== null;
}

/**
 * `n` opens the new-entry form: not while typing in a field, not with Ctrl, Alt or Cmd (browser and
 * system shortcuts), and not while a dialog or menu is open.
 */
export function useNewEntryShortcut(onNewEntry: () => void, enabled = true): void {
  const handler = useRef(onNewEntry);
  useEffect(() => {
    handler.current = onNewEntry;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.isComposing) return;
      if (event.key !== 'n' && event.key !== 'N') return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target)) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]')) return;
      event.preventDefault();
      handler.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
