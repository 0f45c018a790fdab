import type { ComponentType, ReactNode } from 'react';

type Providers = ComponentType<{ children: ReactNode }>;

let loaded: Providers | null = null;
let loading: Promise<Providers> | null = null;
const listeners = new Set<() => void>();

/**
 * Loads the app's providers (TanStack Query, the session, toasts) once. Every app page's route
 * waits for this before it renders, so the providers are in place on its first frame.
 */
export function loadAppProviders(): Promise<Providers> {
  loading ??= import('./AppProviders').then((module) => {
    loaded = module.AppProviders;
    for (const listener of listeners) listener();
    return loaded;
  });
  return loading;
}

/** The providers once loaded, else null (the public pages render without them). */
export function loadedAppProviders(): Providers | null {
  return loaded;
}

export function subscribeAppProviders(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
