import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from './router';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the first load of an app page', () => {
  it('shows a loading state while the page loads, without React Router warning of a missing HydrateFallback', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // Rendered before the /journal route has loaded its code, as the browser's first render can be.
    const router = createMemoryRouter(routes, { initialEntries: ['/journal'] });
    const view = render(<RouterProvider router={router} />);
    expect(view.getByText('Loading...')).toBeInTheDocument();
    const said = [...warn.mock.calls, ...error.mock.calls].flat().join('\n');
    expect(said).not.toMatch(/HydrateFallback/);
    view.unmount();
  });
});
