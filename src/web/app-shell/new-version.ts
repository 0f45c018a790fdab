import { useSyncExternalStore } from 'react';

/**
 * After a new build, a tab opened before it may ask for a chunk that is gone. A failed chunk alone
 * does not say why (offline fails the same way), so the tab asks for the app shell: when the shell
 * names another entry script than the one this tab runs, a new version is out and a reload fixes it.
 */
let available = false;
let checking: Promise<boolean> | null = null;
const listeners = new Set<() => void>();

/** The entry script a page names ('/assets/index-abc.js'), or null (a page without the app). */
function entryScript(page: Document): string | null {
  return page.querySelector('script[type="module"][src]')?.getAttribute('src') ?? null;
}

/** Any app route answers with the shell; /journal is never pre-rendered. */
const SHELL_PATH = '/journal';

/** Checks once (again after a failure) whether the server has a newer build than this tab; announces it when so. */
export function checkForNewVersion(): Promise<boolean> {
  if (available) return Promise.resolve(true);
  checking ??= (async () => {
    const running = entryScript(document);
    if (!running) return false;
    const response = await fetch(SHELL_PATH, { cache: 'no-store', headers: { accept: 'text/html' } });
    const served = entryScript(new DOMParser().parseFromString(await response.text(), 'text/html'));
    return served !== null && served !== running;
  })().then(
    (found) => {
      checking = null;
      if (found && !available) {
        available = true;
        for (const listener of listeners) listener();
      }
      return found;
    },
    () => {
      checking = null;
      return false;
    },
  );
  return checking;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useNewVersionAvailable(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => available,
    () => false,
  );
}

/** Vite reports a chunk (or its CSS) that failed to load; the other failures reach loadOnce or the router. */
export function watchForNewVersion(): void {
  window.addEventListener('vite:preloadError', () => void checkForNewVersion());
}
