import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { FullPageSpinner } from '../auth/FullPageSpinner';
import { useAdminMe } from './queries';

/** Admin pages: a loading state first, then the page for a verified admin, else /admin/login. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { status, user } = useAuth();
  const me = useAdminMe(status === 'signedIn' ? user?.id : undefined);
  if (status === 'loading') return <FullPageSpinner label="Checking admin access..." />;
  if (status === 'signedOut') return <Navigate to="/admin/login" replace />;
  if (me.isPending) return <FullPageSpinner label="Checking admin access..." />;
  if (me.isError || !me.data?.success) return <Navigate to="/admin/login" replace />;
  return <>{children}</>;
}
