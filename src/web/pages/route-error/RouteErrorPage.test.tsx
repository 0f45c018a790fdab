import { render, screen } from '@testing-library/react';
import { createMemoryRouter, data, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteErrorPage } from './RouteErrorPage';

function renderRoute(route: { loader?: () => unknown; Component?: () => null }) {
  const router = createMemoryRouter([{ path: '/', errorElement: <RouteErrorPage />, HydrateFallback: () => null, ...route }]);
  return render(<RouterProvider router={router} />);
}

describe('RouteErrorPage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the status and status text of a route response', async () => {
    renderRoute({
      loader: () => {
        throw data(null, { status: 503, statusText: 'Service Unavailable' });
      },
      Component: () => null,
    });
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText('503 Service Unavailable')).toBeInTheDocument();
  });

  it('shows the message of a thrown error', async () => {
    // React reports the render error to the console before the router catches it.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderRoute({
      Component: () => {
        throw new Error('Entries could not be loaded');
      },
    });
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText('Entries could not be loaded')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });
});
