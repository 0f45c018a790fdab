import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../db/database';
import type { EventBus, UserEvent } from '../events';

/** The PostgreSQL channel every instance listens on. */
export const EVENTS_CHANNEL = 'jotline_events';
/** Shows in pg_stat_activity, so an operator can tell the listening connection from the pool. */
export const LISTENER_APPLICATION_NAME = 'jotline-events';
/** NOTIFY refuses payloads of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_900;
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 1_000;

interface BusLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

interface PgEventBus extends EventBus {
  close(): Promise<void>;
}

/** What travels through NOTIFY: ids and flags only, never journal text. */
interface Notice {
  /** The publishing instance, which has already delivered the event to its own subscribers. */
  i: string;
  u: string;
  e: UserEvent;
}

/**
 * An EventBus that fans out across instances with PostgreSQL LISTEN/NOTIFY. Events reach this
 * instance's subscribers at once and other instances through one dedicated listening connection,
 * which reconnects (with backoff) when it drops; subscribers live in memory and survive that.
 * Resolves once the first LISTEN is in place (or its first attempt failed and a retry is scheduled).
 */
export async function createPgEventBus(options: { connectionString: string; db: Db; log: BusLog }): Promise<PgEventBus> {
  const { connectionString, db, log } = options;
  const instanceId = randomUUID();
  const local = new EventEmitter();
  local.setMaxListeners(0);
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = FIRST_RETRY_MS;
  let closed = false;
  let everConnected = false;

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== EVENTS_CHANNEL || !message.payload) return;
    const notice = parseNotice(message.payload);
    if (notice && notice.i !== instanceId) local.emit(notice.u, notice.e);
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  };

  const connect = async (): Promise<void> => {
    const candidate = new pg.Client({ connectionString, application_name: LISTENER_APPLICATION_NAME });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (client === candidate) client = undefined;
      if (!closed) log.warn({ err: err?.message ?? 'connection ended' }, 'realtime listener lost its connection; reconnecting');
      candidate.end().catch(() => {});
      scheduleReconnect();
    };
    candidate.on('notification', onNotification);
    candidate.on('error', onLost);
    candidate.on('end', () => onLost());
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (err) {
      onLost(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (closed || lost) {
      await candidate.end().catch(() => {});
      return;
    }
    client = candidate;
    retryMs = FIRST_RETRY_MS;
    if (everConnected) {
      log.info({}, 'realtime listener reconnected');
      // Notifications sent while we were away are gone: tell every open page to refetch.
      for (const userId of local.eventNames()) {
        local.emit(userId, { type: 'entries.changed' } satisfies UserEvent);
        local.emit(userId, { type: 'profile.updated' } satisfies UserEvent);
        // A sign-out may have been missed too: open streams check their sessions again.
        local.emit(userId, { type: 'sessions.changed' } satisfies UserEvent);
      }
    }
    everConnected = true;
  };

  await connect();

  return {
    publish(userId, event) {
      local.emit(userId, event);
      const payload = noticePayload({ i: instanceId, u: userId, e: event });
      sql`select pg_notify(${EVENTS_CHANNEL}, ${payload})`
        .execute(db)
        .catch((err: unknown) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not publish a realtime event'));
    },
    subscribe(userId, listener) {
      local.on(userId, listener);
      return () => void local.off(userId, listener);
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const open = client;
      client = undefined;
      await open?.end().catch(() => {});
      local.removeAllListeners();
    },
  };
}

/** The notice as JSON; should an event ever outgrow NOTIFY's limit, its type alone still goes. */
export function noticePayload(notice: Notice): string {
  const full = JSON.stringify(notice);
  if (Buffer.byteLength(full) <= MAX_PAYLOAD_BYTES) return full;
  return JSON.stringify({ ...notice, e: { type: notice.e.type } });
}

function parseNotice(payload: string): Notice | undefined {
  try {
    const value = JSON.parse(payload) as Partial<Notice>;
    const type = value.e?.type;
    if (typeof value.i !== 'string' || typeof value.u !== 'string' || (type !== 'entries.changed' && type !== 'profile.updated' && type !== 'sessions.changed')) return undefined;
    return value as Notice;
  } catch {
    return undefined;
  }
}
