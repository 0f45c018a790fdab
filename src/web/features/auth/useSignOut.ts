import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { SignOutScope } from '../../api/types';
import { useAuth } from './auth-context';

/** Sign Out as a menu action: clear the session, say so, and go home (spec 2). */
export function useSignOut(): (scope?: SignOutScope) => Promise<void> {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  return useCallback(
    async (scope: SignOutScope = 'local') => {
      const done = signOut(scope);
      navigate('/', { replace: true });
      await done;
    },
    [signOut, navigate],
  );
}
