import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { toast, Toaster } from 'sonner';
import { toasterOptions } from '../components/ui/toaster-options';
import { AuthProvider } from '../features/auth/AuthProvider';
import { ConfirmPersonDialog } from '../features/security/ConfirmPersonDialog';
import { useNewVersionAvailable } from './new-version';

// One client for the life of the tab: the providers mount once and stay mounted.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      gcTime: 5 * 60 * 1000,
      retry: 3,
      retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
    },
  },
});

/**
 * What the signed-in app needs around every page: server state, the session and toasts. Loaded with
 * the first app page, so the public pages never download it (see app-providers.ts).
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const newVersion = useNewVersionAvailable();
  // A chunk that failed for a new build is no connection problem: its toast gives way to the prompt.
  useEffect(() => {
    if (newVersion) toast.dismiss();
  }, [newVersion]);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        {children}
        <ConfirmPersonDialog />
        <Toaster {...toasterOptions} />
      </AuthProvider>
    </QueryClientProvider>
  );
}
