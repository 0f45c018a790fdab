import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DevMailPage } from './DevMailPage';
import { linkify } from './linkify';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const resetMail = {
  id: 'm2',
  to: 'ada@example.com',
  from: 'Jotline <hello@jotline.app>',
  subject: 'Reset your password',
  text: 'Reset it here: http://localhost:3000/reset-password#token=abc.\nThanks!',
  html: '<p>Reset <a href="http://localhost:3000/reset-password">here</a></p><script>alert(1)</script>',
  at: '2026-11-22T10:05:00.000Z',
};
const welcomeMail = { id: 'm1', to: 'ada@example.com', from: 'Jotline <hello@jotline.app>', subject: 'Welcome', text: 'Hello', html: null, at: '2026-11-22T10:00:00.000Z' };

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(async () => json(200, { messages: [resetMail, welcomeMail] }));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  const router = createMemoryRouter([{ path: '/dev/mail', element: <DevMailPage /> }], { initialEntries: ['/dev/mail'] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('linkify', () => {
  it('turns web addresses into links and leaves the rest as text', () => {
    const { container } = render(<p>{linkify('See https://jotline.app/a?b=1, or http://x.test/y). Done <b>')}</p>);
    const links = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['https://jotline.app/a?b=1', 'http://x.test/y']);
    expect(container.textContent).toBe('See https://jotline.app/a?b=1, or http://x.test/y). Done <b>');
    expect(container.querySelector('b')).toBeNull();
  });

  it('links nothing that is not http(s)', () => {
    const { container } = render(<p>{linkify('javascript:alert(1) and ftp://x')}</p>);
    expect(container.querySelector('a')).toBeNull();
  });
});

describe('the dev mailbox page', () => {
  it('lists the e-mails newest first', async () => {
    renderPage();
    const items = await screen.findAllByRole('button', { name: /ada@example.com/ });
    expect(items.map((b) => b.textContent)).toEqual([expect.stringContaining('Reset your password'), expect.stringContaining('Welcome')]);
  });

  it('opens an e-mail with its links clickable', async () => {
    const user = userEvent.setup({ delay: null });
    const router = renderPage();
    await user.click(await screen.findByRole('button', { name: /Reset your password/ }));
    expect(router.state.location.search).toBe('?id=m2');
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'http://localhost:3000/reset-password#token=abc' })).toHaveAttribute('href', 'http://localhost:3000/reset-password#token=abc');
  });

  it('shows the HTML only in a sandboxed frame', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByRole('button', { name: /Reset your password/ }));
    await user.click(screen.getByRole('button', { name: 'HTML' }));
    const frame = screen.getByTitle('HTML version of "Reset your password"');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(document.body.querySelector('main script')).toBeNull();
  });

  it('explains when the server has no dev mailbox', async () => {
    fetchMock.mockImplementation(async () => json(404, { error: { code: 'NOT_FOUND', message: 'Not found' } }));
    renderPage();
    expect(await screen.findByText('The dev mailbox is off')).toBeInTheDocument();
  });
});
