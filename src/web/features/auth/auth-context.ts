import { createContext, useContext } from 'react';
import type { Session, SessionUser, SignOutScope, SignUpInput, SignUpResult } from '../../api/types';

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

export interface AuthContextValue {
  status: AuthStatus;
  session: Session | null;
  user: SessionUser | null;
  /** True after the person chose to sign out, so guards send them home rather than to sign-in. */
  signedOutByUser: boolean;
  signIn(email: string, password: string): Promise<Session>;
  signUp(input: SignUpInput): Promise<Partial<SignUpResult>>;
  /** Stores a session obtained elsewhere (a sign-in link). */
  acceptSession(session: Session): void;
  /** Always clears the local session and says 'Signed out', even when the server call fails. */
  signOut(scope?: SignOutScope): Promise<void>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
