import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { StrictMode, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type InitialEntry, type RouteObject } from 'react-router';
import { toast, Toaster } from 'sonner';
import { AuthProvider } from '../features/auth/AuthProvider';

/** Test-only: renders routes the way App does (query client, auth, toasts) on a memory router. */
export function renderApp(routes: RouteObject[], initialEntries: InitialEntry[] = ['/'], { strict = false } = {}) {
  // Sonner replays still-active toasts to a new Toaster; start each render without the last test's.
  toast.dismiss();
  const router = createMemoryRouter(routes, { initialEntries });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const Wrapper = strict ? StrictMode : ({ children }: { children: ReactNode }) => <>{children}</>;
  const view = render(
    <Wrapper>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <RouterProvider router={router} />
          <Toaster />
        </AuthProvider>
      </QueryClientProvider>
    </Wrapper>,
  );
  return { ...view, router, path: () => `${router.state.location.pathname}${router.state.location.search}` };
}

/** A stand-in page that only says where it is. */
export const markerRoute = (path: string, text = `${path} page`): RouteObject => ({ path, element: <p>{text}</p> });
