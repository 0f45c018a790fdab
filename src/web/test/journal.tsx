import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { toast, Toaster } from 'sonner';
import { vi } from 'vitest';
import type { EntriesPage, JournalEntry, JournalStats } from '../../shared/journal';
import { fakeSession } from './fake-api';
import { sessionStore } from '../api/session-store';
import { AuthProvider } from '../features/auth/AuthProvider';

/**
 * Test-only: the HTTP API faked at the fetch boundary with real Response objects (headers,
 * blobs), answering by 'METHOD /path'. Unknown routes answer 404 like a missing endpoint.
 */
export interface SeenRequest {
  method: string;
  path: string;
  params: URLSearchParams;
  headers: Record<string, string>;
  json: any;
  form: FormData | undefined;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type Handler = (request: SeenRequest) => Answer | Promise<Answer>;

export const json = (status: number, body?: unknown): Answer => ({ status, body });
export const failure = (status: number, message: string, code = 'ERROR'): Answer => json(status, { error: { code, message } });
/** Never answers: the request stays in flight. */
export const pending: Handler = () => new Promise(() => undefined);
export const offline: Handler = () => {
  throw new TypeError('Failed to fetch');
};

export function installJournalApi() {
  const routes = new Map<string, Handler[]>();
  const requests: SeenRequest[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const request: SeenRequest = {
      method: (init.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      params: url.searchParams,
      headers: { ...(init.headers as Record<string, string>) },
      json: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      form: init.body instanceof FormData ? init.body : undefined,
    };
    requests.push(request);
    const handlers = routes.get(`${request.method} ${request.path}`);
    const handler = handlers && handlers.length > 1 ? handlers.shift()! : handlers?.[0];
    const answer = handler ? await handler(request) : failure(404, 'Not found', 'NOT_FOUND');
    const body = answer.body instanceof Blob || typeof answer.body === 'string' ? answer.body : answer.body === undefined ? null : JSON.stringify(answer.body);
    return new Response(answer.status === 204 ? null : body, { status: answer.status, headers: answer.headers });
  });
  vi.stubGlobal('fetch', fetch);

  return {
    fetch,
    requests,
    /** Answers for a route, used in turn; the last one keeps answering. */
    on(route: string, ...answers: Array<Answer | Handler>) {
      routes.set(route, answers.map((a) => (typeof a === 'function' ? a : () => a)));
      return this;
    },
    to(route: string): SeenRequest[] {
      return requests.filter((r) => `${r.method} ${r.path}` === route);
    },
  };
}

export type JournalApi = ReturnType<typeof installJournalApi>;

let nextId = 1;
export function buildEntry(overrides: Partial<JournalEntry> = {}): JournalEntry {
  const id = overrides.id ?? `entry-${nextId++}`;
  return {
    id,
    title: null,
    content: 'Walked by the river and watched the herons.',
    version: 1,
    source: 'web',
    entry_date: '2026-03-03',
    created_at: '2026-03-03T20:05:00.000Z',
    updated_at: '2026-03-03T20:05:00.000Z',
    tags: [],
    word_count: 8,
    photos: [],
    ...overrides,
  };
}

export function buildPhoto(n: number) {
  return { id: `photo-${n}`, url: `/media/full-${n}.jpg`, thumbnail_url: `/media/thumb-${n}.webp`, file_name: `photo-${n}.jpg`, file_size: 1000, mime_type: 'image/jpeg' };
}

export const page = (entries: JournalEntry[], nextCursor: string | null = null): EntriesPage => ({ entries, nextCursor });
export const stats = (overrides: Partial<JournalStats> = {}): JournalStats => ({ current_streak: 3, total_days: 12, total_photos: 4, total_words: 1234, ...overrides });

/** Renders journal UI signed in, at /journal (or the given address), with toasts and a query client. */
export function renderJournal(ui: ReactNode, { at = '/journal' }: { at?: string } = {}) {
  toast.dismiss();
  sessionStore.set(fakeSession({ access_token: 'token-1' }));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, retryDelay: 0 }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/journal', element: ui },
      { path: '/subscribe', element: <p>subscribe page</p> },
    ],
    { initialEntries: [at] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <RouterProvider router={router} />
        <Toaster />
      </AuthProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient, address: () => `${router.state.location.pathname}${router.state.location.search}` };
}

/** A File of the given size (bytes are not read). */
export function photoFile(name: string, size: number, type = 'image/jpeg'): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}
