import type { ComponentType, ReactNode } from 'react';
import { loadOnce } from '../components/ui/load-once';

type Providers = ComponentType<{ children: ReactNode }>;

const providers = loadOnce<Providers>(() => import('./AppProviders').then((module) => module.AppProviders));
const listeners = new Set<() => void>();

/**
 * Loads the app's providers (TanStack Query, the session, toasts) once; a download that failed
 * (offline) is tried again by the next page. Every app page's route waits for this before it
 * renders, so the providers are in place on its first frame.
 */
export async function loadAppProviders(): Promise<Providers> {
  const loaded = await providers.load();
  for (const listener of listeners) listener();
  return loaded;
}

/** The providers once loaded, else null (the public pages render without them). */
export function loadedAppProviders(): Providers | null {
  return providers.loaded();
}

export function subscribeAppProviders(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
