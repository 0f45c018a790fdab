import { useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import * as authApi from '../../api/auth';
import { refreshIfExpiring, refreshSession } from '../../api/client';
import { secondsLeft, sessionStore } from '../../api/session-store';
import type { Session, SignOutScope } from '../../api/types';
import { AuthContext, type AuthContextValue } from './auth-context';

/** How often the session is checked for near expiry (spec 4: about every 30 s). */
const SESSION_CHECK_INTERVAL_MS = 30_000;

const serverSnapshot = () => null;

/** Holds the session: read from storage, kept fresh, shared across tabs. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const session = useSyncExternalStore(sessionStore.subscribe, sessionStore.get, serverSnapshot);
  // A stored session whose access token has already expired is refreshed before anyone trusts it.
  const [restoring, setRestoring] = useState(() => {
    const stored = sessionStore.get();
    return !!stored && secondsLeft(stored) <= 0;
  });
  const [signedOutByUser, setSignedOutByUser] = useState(false);

  useEffect(() => {
    if (!restoring) return;
    let active = true;
    refreshSession(sessionStore.get()?.access_token)
      .catch(() => undefined)
      .finally(() => {
        if (active) setRestoring(false);
      });
    return () => {
      active = false;
    };
  }, [restoring]);

  useEffect(() => {
    const tick = () => void refreshIfExpiring().catch(() => undefined);
    tick();
    const timer = setInterval(tick, SESSION_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);

  const acceptSession = useCallback((next: Session) => {
    setSignedOutByUser(false);
    sessionStore.set(next);
  }, []);

  const signIn = useCallback(
    async (email: string, password: string) => {
      const next = await authApi.signInWithPassword(email, password);
      acceptSession(next);
      return next;
    },
    [acceptSession],
  );

  const signOut = useCallback(async (scope: SignOutScope = 'local') => {
    const current = sessionStore.get();
    setSignedOutByUser(true);
    sessionStore.clear();
    toast.success(messages.signOut.done);
    if (!current) return;
    try {
      await authApi.logout(scope, current.access_token);
    } catch {
      // Spec 8: signing out is reported as done even when the server call fails.
    }
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      status: restoring ? 'loading' : session ? 'signedIn' : 'signedOut',
      session,
      user: session?.user ?? null,
      signedOutByUser,
      signIn,
      signUp: authApi.signUp,
      acceptSession,
      signOut,
    }),
    [restoring, session, signedOutByUser, signIn, acceptSession, signOut],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export { useAuth } from './auth-context';
export type { AuthStatus } from './auth-context';
