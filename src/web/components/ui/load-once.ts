import { checkForNewVersion } from '../../app-shell/new-version';

/**
 * Code downloaded once and kept; a download that failed (offline) is tried again by the next call.
 * A failure may mean a new build replaced this tab's chunks: the tab then offers a reload.
 */
export function loadOnce<T>(load: () => Promise<T>): { load: () => Promise<T>; loaded: () => T | null } {
  let value: T | null = null;
  let loading: Promise<T> | null = null;
  return {
    load: () =>
      (loading ??= load().then(
        (result) => (value = result),
        (error: unknown) => {
          loading = null;
          void checkForNewVersion();
          throw error;
        },
      )),
    loaded: () => value,
  };
}
