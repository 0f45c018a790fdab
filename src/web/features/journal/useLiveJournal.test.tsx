import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSession, installFakeApi, reply, type FakeApi } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { journalKeys } from './queries';
import { LIVE_RECONNECT_MS, LIVE_REFRESH_DEBOUNCE_MS, useLiveJournal } from './useLiveJournal';

/** EventSource is not in the test DOM; this one is driven by the test. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = 1;
  private listeners = new Map<string, Array<() => void>>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string) {
    for (const listener of this.listeners.get(type) ?? []) listener();
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
}

let api: FakeApi;
let tickets = 0;
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  api = installFakeApi();
  tickets = 0;
  api.on('POST /api/events/ticket', () => reply(200, { ticket: `ticket-${++tickets}` }));
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  sessionStore.set(fakeSession({ access_token: 'access-secret' }));
});
afterEach(() => {
  sessionStore.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderLive(queryClient = new QueryClient()) {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return renderHook(() => useLiveJournal(), { wrapper });
}

const streams = () => FakeEventSource.instances;
const waitForStreams = (n: number) => vi.waitFor(() => expect(streams()).toHaveLength(n));

describe('useLiveJournal', () => {
  it('opens the stream with a ticket asked for with the session, never with the access token in the address', async () => {
    renderLive();
    await waitForStreams(1);
    const [ticketRequest] = api.requestsTo('POST /api/events/ticket');
    expect(ticketRequest!.headers.Authorization).toBe('Bearer access-secret');
    expect(streams()[0]!.url).toBe('/api/events?ticket=ticket-1');
    expect(streams()[0]!.url).not.toContain('access-secret');
  });

  /** The stream drops: the browser says so and is reconnecting by itself, or (refused) has given up. */
  const drop = (stream: FakeEventSource, browser: 'reconnecting' | 'gave up') => {
    stream.readyState = browser === 'reconnecting' ? FakeEventSource.CONNECTING : FakeEventSource.CLOSED;
    act(() => stream.emit('error'));
  };

  it('leaves a dropped stream to the browser, which reconnects by itself', async () => {
    renderLive();
    await waitForStreams(1);
    drop(streams()[0]!, 'reconnecting');
    await act(async () => vi.advanceTimersByTimeAsync(LIVE_RECONNECT_MS * 2));
    expect(streams()).toHaveLength(1);
    expect(streams()[0]!.readyState).toBe(FakeEventSource.CONNECTING);
    expect(api.requestsTo('POST /api/events/ticket')).toHaveLength(1);
  });

  it('comes back with a new ticket after the browser gave up (the stream was refused)', async () => {
    renderLive();
    await waitForStreams(1);
    drop(streams()[0]!, 'gave up');
    expect(streams()[0]!.readyState).toBe(FakeEventSource.CLOSED);
    await act(async () => vi.advanceTimersByTimeAsync(LIVE_RECONNECT_MS));
    await waitForStreams(2);
    expect(streams()[1]!.url).toBe('/api/events?ticket=ticket-2');
  });

  it('tries again later when no ticket can be had', async () => {
    api.once('POST /api/events/ticket', reply(503, { error: { code: 'UNAVAILABLE', message: 'Try again' } }));
    renderLive();
    await vi.waitFor(() => expect(api.requestsTo('POST /api/events/ticket')).toHaveLength(1));
    expect(streams()).toHaveLength(0);
    await act(async () => vi.advanceTimersByTimeAsync(LIVE_RECONNECT_MS));
    await waitForStreams(1);
    expect(streams()[0]!.url).toBe('/api/events?ticket=ticket-1');
  });

  it('reads the journal again once the stream opens, first time and after a drop: a change before it was not heard', async () => {
    const queryClient = new QueryClient();
    const entries = () => queryClient.getQueryState(journalKeys.entries)!;
    const stats = () => queryClient.getQueryState(journalKeys.stats)!;
    // The journal as read before the stream opened (a text may land in between).
    queryClient.setQueryData(journalKeys.entries, { pages: [], pageParams: [] });
    queryClient.setQueryData(journalKeys.stats, {});
    renderLive(queryClient);
    await waitForStreams(1);
    await act(async () => vi.advanceTimersByTimeAsync(LIVE_REFRESH_DEBOUNCE_MS * 2));
    expect(entries().isInvalidated).toBe(false);

    act(() => streams()[0]!.emit('open'));
    await act(async () => vi.advanceTimersByTimeAsync(LIVE_REFRESH_DEBOUNCE_MS));
    expect(entries().isInvalidated).toBe(true);
    expect(stats().isInvalidated).toBe(true);

    queryClient.setQueryData(journalKeys.entries, { pages: [], pageParams: [] });
    drop(streams()[0]!, 'reconnecting');
    await act(async () => vi.advanceTimersByTimeAsync(LIVE_RECONNECT_MS));
    expect(entries().isInvalidated).toBe(false);
    streams()[0]!.readyState = 1;
    act(() => streams()[0]!.emit('open'));
    await act(async () => vi.advanceTimersByTimeAsync(LIVE_REFRESH_DEBOUNCE_MS));
    expect(entries().isInvalidated).toBe(true);
  });

  it('asks at once when the server says the session was signed out elsewhere, and a refused ticket ends it here', async () => {
    renderLive();
    await waitForStreams(1);
    api.on('POST /api/events/ticket', reply(401, { error: { code: 'UNAUTHORIZED', message: 'Session expired' } }));
    api.on('POST /api/auth/token', reply(401, { error: { code: 'UNAUTHORIZED', message: 'Session expired' } }));
    act(() => streams()[0]!.emit('signed-out'));
    expect(streams()[0]!.readyState).toBe(FakeEventSource.CLOSED);
    await vi.waitFor(() => expect(sessionStore.get()).toBeNull());
    expect(api.requestsTo('POST /api/events/ticket')).toHaveLength(2);
    expect(streams()).toHaveLength(1);
  });

  it('closes the stream at sign-out and opens none without a session', async () => {
    renderLive();
    await waitForStreams(1);
    act(() => sessionStore.clear());
    expect(streams()[0]!.readyState).toBe(FakeEventSource.CLOSED);
    await act(async () => vi.advanceTimersByTimeAsync(LIVE_RECONNECT_MS * 2));
    expect(streams()).toHaveLength(1);
  });
});
