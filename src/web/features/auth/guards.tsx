import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from './auth-context';
import { FullPageSpinner } from './FullPageSpinner';
import { destinationAfterSignIn, type FromState } from './redirect';

/** Shows a loading state, then redirects to /sign-in without a session, remembering where they were going. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status, signedOutByUser } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'signedOut') {
    // Someone who just chose Sign Out goes home (spec 2), not to a sign-in form.
    if (signedOutByUser) return <Navigate to="/" replace />;
    const state: FromState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
    return <Navigate to="/sign-in" replace state={state} />;
  }
  return <>{children}</>;
}

/** Sends a signed-in user from sign-in and sign-up to /journal (or to the page they were headed for). */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'signedIn') return <Navigate to={destinationAfterSignIn(location.state)} replace />;
  return <>{children}</>;
}
