import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../shared/messages';
import { RouteErrorPage } from '../pages/route-error/RouteErrorPage';

const shellNaming = (script: string) => `<!doctype html><html><head><script type="module" crossorigin src="${script}"></script></head><body></body></html>`;

/** A page whose code cannot be downloaded (the chunk is gone, or the network is). */
function openPageWhoseChunkFails() {
  const router = createMemoryRouter([
    {
      path: '/',
      errorElement: <RouteErrorPage />,
      HydrateFallback: () => null,
      lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/SettingsPage-abc.js')),
    },
  ]);
  return render(<RouterProvider router={router} />);
}

describe('a chunk that fails to load', () => {
  beforeEach(() => {
    // This tab runs the build whose entry is index-OLD.js.
    // As parsed HTML, the way the shell put it there (a script inserted so is not run again).
    document.head.insertAdjacentHTML('beforeend', '<script type="module" src="/assets/index-OLD.js"></script>');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    document.head.querySelectorAll('script[type="module"]').forEach((script) => script.remove());
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  // In this order: once a tab knows of a new version, it stays known.
  it('shows the error when the server still serves the build this tab runs (offline, or another fault)', async () => {
    const fetch = vi.fn(async () => new Response(shellNaming('/assets/index-OLD.js'), { headers: { 'content-type': 'text/html' } }));
    vi.stubGlobal('fetch', fetch);
    openPageWhoseChunkFails();
    expect(await screen.findByRole('heading', { name: messages.routeError.heading })).toBeInTheDocument();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(screen.queryByText(messages.newVersion.available, { exact: false })).not.toBeInTheDocument();
  });

  it('asks for a reload when the server has a newer build', async () => {
    const fetch = vi.fn(async () => new Response(shellNaming('/assets/index-NEW.js'), { headers: { 'content-type': 'text/html' } }));
    vi.stubGlobal('fetch', fetch);
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    openPageWhoseChunkFails();
    const alert = await screen.findByRole('alert');
    await vi.waitFor(() => expect(alert).toHaveTextContent('A new version of Jotline is available — reload'));
    expect(fetch).toHaveBeenCalledWith('/journal', expect.objectContaining({ cache: 'no-store' }));
    screen.getByRole('button', { name: 'reload' }).click();
    expect(reload).toHaveBeenCalled();
  });
});
