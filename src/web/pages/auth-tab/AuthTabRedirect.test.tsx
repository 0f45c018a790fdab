import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { authTabRedirect } from './auth-tab-redirect';

function open(address: string) {
  const router = createMemoryRouter(
    [
      { path: '/auth', loader: authTabRedirect },
      { path: '/sign-in', element: <p>sign-in page</p> },
      { path: '/sign-up', element: <p>sign-up page</p> },
    ],
    { initialEntries: [address] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('old /auth links', () => {
  it.each([
    ['/auth?tab=signin', '/sign-in'],
    ['/auth?tab=signup', '/sign-up'],
    ['/auth', '/sign-in'],
  ])('%s opens %s', async (address, page) => {
    const router = open(address);
    expect(await screen.findByText(`${page.slice(1)} page`)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(page);
  });
});
