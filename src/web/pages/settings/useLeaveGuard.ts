import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { sessionStore } from '../../api/session-store';

/**
 * Holds in-app navigation away from the page while there are unsaved changes (the caller asks
 * what to do), and has the browser ask before the tab closes or reloads.
 */
export function useLeaveGuard(unsaved: boolean) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      // Signing out clears the session before it goes home; that is not a question for this page.
      unsaved && sessionStore.get() !== null && currentLocation.pathname !== nextLocation.pathname,
  );

  useAskBeforeClosing(unsaved);
  return blocker;
}

/** Has the browser ask before the tab closes or reloads while `active`. */
export function useAskBeforeClosing(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers only ask when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}
