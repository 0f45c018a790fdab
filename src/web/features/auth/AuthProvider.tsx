import type { ReactNode } from 'react';

/** Holds the session; the auth slice fills this in. */
export function AuthProvider({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
