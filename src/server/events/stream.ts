import type { Writable } from 'node:stream';
import type { UserEvent } from '../events';

export const HEARTBEAT_MS = 25_000;
/** How long a browser waits before reconnecting after the stream drops. */
const RETRY_MS = 5_000;

export interface EventStream {
  /** Ends the stream; 'signed-out' first tells the page its session ended, so it need not wait to find out. */
  close(reason?: 'signed-out'): void;
}

/**
 * Writes a user's events to an open server-sent-events response: `event: <type>` with the
 * event as JSON data (and its `id:` when numbered, which the browser sends back as Last-Event-ID
 * when it reconnects), and a comment line every heartbeat so proxies keep the connection open.
 * Once subscribed, a `connected` event carries the newest id (`openingId`), so a stream that drops
 * before any event still says where it was. Everything is released when either side closes.
 */
export function pipeUserEvents(
  out: Writable,
  subscribe: (listener: (event: UserEvent, id?: string) => void) => () => void,
  openingId?: () => string,
  heartbeatMs = HEARTBEAT_MS,
): EventStream {
  let closed = false;
  const write = (chunk: string) => {
    if (!closed && out.writable) out.write(chunk);
  };
  write(`retry: ${RETRY_MS}\n: connected\n\n`);
  const unsubscribe = subscribe((event, id) => write(`${id ? `id: ${id}\n` : ''}event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`));
  if (openingId) write(`id: ${openingId()}\nevent: connected\ndata: {}\n\n`);
  const heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs);
  heartbeat.unref();
  const close = (reason?: 'signed-out') => {
    if (closed) return;
    if (reason) write(`event: ${reason}\ndata: {}\n\n`);
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    if (!out.writableEnded) out.end();
  };
  out.once('close', () => close());
  out.once('error', () => close());
  return { close };
}
