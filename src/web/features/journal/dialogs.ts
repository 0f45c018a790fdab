import { lazyDialog } from '../../components/ui/lazy-dialog';
import { journalCopy } from './copy';
import { toastFailure } from './feedback';

/** A dialog whose code could not be downloaded (offline): spec 8's failure toast. */
const onLoadError = (error: unknown) => toastFailure(error, journalCopy.loadError);
const whenOpen = { isOpen: (p: { open: boolean }) => p.open, close: (p: { onOpenChange: (open: boolean) => void }) => p.onOpenChange(false), onLoadError };

/**
 * The journal's dialogs, each loaded the first time it opens (or once the reader starts using the
 * page): Radix's dialog, focus trap and scroll lock are not part of the first screen's download.
 */
export const NewEntryModal = lazyDialog(() => import('./NewEntryModal').then((m) => m.NewEntryModal), whenOpen);
export const ExportModal = lazyDialog(() => import('./ExportModal').then((m) => m.ExportModal), whenOpen);
export const DeleteEntryDialog = lazyDialog(() => import('./DeleteEntryDialog').then((m) => m.DeleteEntryDialog), whenOpen);
export const Modal = lazyDialog(() => import('./Modal').then((m) => m.Modal), whenOpen);
export const PhotoLightbox = lazyDialog(() => import('./PhotoLightbox').then((m) => m.PhotoLightbox), {
  isOpen: (p) => p.index !== null,
  close: (p) => p.onIndexChange(null),
  onLoadError,
});

export const journalDialogs = [NewEntryModal, ExportModal, DeleteEntryDialog, PhotoLightbox, Modal];
