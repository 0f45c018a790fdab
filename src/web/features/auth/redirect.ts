import type { Location } from 'react-router';

/** Router state a guard leaves behind so sign-in can return the person to where they were going. */
export interface FromState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

/** Only same-app paths: '/journal?x' yes; '//evil.example' or 'https://…' no. */
export function isSafeAppPath(path: unknown): path is string {
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}

/** Where to go after signing in: the page a guard turned them away from, else the journal. */
export function destinationAfterSignIn(state: unknown, fallback = '/journal'): string {
  const from = (state as FromState | null)?.from;
  if (!from) return fallback;
  const path = `${from.pathname ?? ''}${from.search ?? ''}${from.hash ?? ''}`;
  return isSafeAppPath(path) && !path.startsWith('/sign-in') ? path : fallback;
}
