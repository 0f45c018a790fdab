import { useEffect, useReducer, useState, type ComponentType } from 'react';
import { loadOnce } from './load-once';

/** A dialog whose code is loaded the first time it opens; `preload()` fetches it sooner. */
type LazyDialog<P> = ComponentType<P> & { preload: () => Promise<unknown> };

interface LazyDialogOptions<P> {
  /** Whether these props ask for the dialog open. */
  isOpen: (props: P) => boolean;
  /** Asks the owner to close it: the code could not be loaded (offline), so a next open tries again. */
  close: (props: P) => void;
  /** Tells the user the dialog could not be opened. */
  onLoadError: (error: unknown) => void;
}

/**
 * A dialog that stays out of its page's first download: nothing is rendered (and none of its code is
 * needed) until it first opens; from then on it stays mounted, so it closes with its own behaviour
 * (focus returned, exit animation) and opens again at once. `preload()` (or preloadOnFirstInteraction)
 * fetches it sooner, so a first open rarely waits for the network.
 *
 *   const ExportModal = lazyDialog(() => import('./ExportModal').then((m) => m.ExportModal), {
 *     isOpen: (p) => p.open, close: (p) => p.onOpenChange(false), onLoadError: showError });
 */
export function lazyDialog<P extends object>(load: () => Promise<ComponentType<P>>, options: LazyDialogOptions<P>): LazyDialog<P> {
  const code = loadOnce(load);
  const preload = code.load;

  function LazyDialogHost(props: P) {
    const open = options.isOpen(props);
    const [opened, setOpened] = useState(open);
    const [, rerender] = useReducer((n: number) => n + 1, 0);
    if (open && !opened) setOpened(true);
    useEffect(() => {
      if (!open || code.loaded()) return;
      let current = true;
      preload().then(
        () => current && rerender(),
        (error: unknown) => {
          if (!current) return;
          options.onLoadError(error);
          options.close(props);
        },
      );
      return () => {
        current = false;
      };
      // Only an opening starts a load (the opening render's props close it if the load fails).
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, [open]);
    const Dialog = code.loaded();
    if (!Dialog || (!open && !opened)) return null;
    return <Dialog {...props} />;
  }
  return Object.assign(LazyDialogHost, { preload });
}

/** What shows that someone has started to use the page: a dialog may be next. */
const INTERACTIONS = ['pointermove', 'pointerdown', 'touchstart', 'keydown', 'focusin', 'scroll'] as const;

/**
 * Fetches the dialogs' code when the reader first moves, taps, types or scrolls, so it is usually in
 * by the time they open one, and it never competes with the page's own first screen on a slow phone.
 * Returns the clean-up.
 */
export function preloadOnFirstInteraction(dialogs: Array<{ preload: () => Promise<unknown> }>): () => void {
  const options = { capture: true, passive: true } as const;
  const stop = () => {
    for (const type of INTERACTIONS) window.removeEventListener(type, start, options);
  };
  function start() {
    stop();
    // A failure here is tried again when the dialog opens.
    for (const dialog of dialogs) dialog.preload().catch(() => undefined);
  }
  for (const type of INTERACTIONS) window.addEventListener(type, start, options);
  return stop;
}
