import type { ToasterProps } from 'sonner';

/**
 * The one set of options for the app's toasts: bottom centre on every screen size. At the top they
 * covered what people reach for next (the admin header's buttons, a dialog's title); along the bottom
 * edge nothing is fixed but the journal's add button, which sits at the right, clear of them. A
 * dialog opening clears them (journal/Modal.tsx), so they never lie over its buttons on a phone.
 */
export const toasterOptions = {
  position: 'bottom-center',
  richColors: true,
  closeButton: true,
  offset: { bottom: 24 },
  mobileOffset: { bottom: 16, left: 16, right: 16 },
} as const satisfies ToasterProps;
