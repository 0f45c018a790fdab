import type { ToasterProps } from 'sonner';

/** Just below the app's sticky header (about 70 px), so a toast never covers the logo or the account menu. */
export const TOAST_TOP_OFFSET = 84;

/** The one set of options for the app's toasts: top centre, under the header, on every screen size. */
export const toasterOptions = {
  position: 'top-center',
  richColors: true,
  closeButton: true,
  offset: { top: TOAST_TOP_OFFSET },
  mobileOffset: { top: TOAST_TOP_OFFSET, left: 16, right: 16 },
} as const satisfies ToasterProps;
