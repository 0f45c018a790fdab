import { randomBytes } from 'node:crypto';
import type { EventBus, UserEvent } from '../events';

/** How long a user's events are kept after their last stream closed, and how far back a reconnect is replayed. */
export const REPLAY_WINDOW_MS = 120_000;
/** At most this many events are kept per user; a reconnect further back reads everything again. */
const KEPT_EVENTS = 200;

/** One event as a stream sends it: its id (`instance:sequence`) for the browser's Last-Event-ID. */
export type NumberedListener = (event: UserEvent, id: string) => void;

interface Followed {
  /** Events numbered after this were all heard (none dropped from the front yet). */
  heardAfter: number;
  kept: Array<{ seq: number; at: number; event: UserEvent }>;
  listeners: Set<NumberedListener>;
  unsubscribe: () => void;
  release?: NodeJS.Timeout;
}

/** Whatever changed may have been missed: the page reads its journal and profile again. */
const EVERYTHING_CHANGED: UserEvent[] = [{ type: 'entries.changed' }, { type: 'profile.updated' }];

/**
 * A user's recent events on this instance, numbered, so a stream that reconnects with
 * Last-Event-ID gets what it missed while it was away. Events are followed while any stream of the
 * user is open and for REPLAY_WINDOW_MS after the last one closed. A reconnect this instance cannot
 * answer exactly (an id of another instance or an earlier start, or further back than kept) gets
 * "everything changed" instead, so nothing is missed either way.
 */
export class EventHistory {
  /** Ids of another instance, or of this one before a restart, are not taken for ours. */
  private readonly instance = randomBytes(6).toString('base64url');
  private seq = 0;
  private readonly users = new Map<string, Followed>();

  constructor(
    private readonly bus: EventBus,
    private readonly now: () => number = Date.now,
  ) {}

  /** The id of the newest event so far, for a stream to start from. */
  latestId(): string {
    return `${this.instance}:${this.seq}`;
  }

  /**
   * Passes the user's events to `listener` from now on, after those missed since `lastEventId`
   * (none for a new stream). Returns the function that stops.
   */
  follow(userId: string, lastEventId: string | undefined, listener: NumberedListener): () => void {
    const user = this.users.get(userId) ?? this.start(userId);
    clearTimeout(user.release);
    user.release = undefined;
    this.prune(user);
    if (lastEventId !== undefined) {
      for (const { event, seq } of this.missed(user, lastEventId)) listener(event, `${this.instance}:${seq}`);
    }
    user.listeners.add(listener);
    return () => {
      user.listeners.delete(listener);
      if (user.listeners.size > 0 || user.release) return;
      user.release = setTimeout(() => {
        if (user.listeners.size > 0) return;
        user.unsubscribe();
        this.users.delete(userId);
      }, REPLAY_WINDOW_MS);
      user.release.unref();
    };
  }

  /** Forgets every user (the app is closing). */
  close(): void {
    for (const user of this.users.values()) {
      clearTimeout(user.release);
      user.unsubscribe();
    }
    this.users.clear();
  }

  private start(userId: string): Followed {
    // A number of its own: an id given out before (when the user was last followed) is older, so
    // what happened while nobody followed is never taken for heard.
    this.seq += 1;
    const user: Followed = { heardAfter: this.seq, kept: [], listeners: new Set(), unsubscribe: () => {} };
    user.unsubscribe = this.bus.subscribe(userId, (event) => {
      this.seq += 1;
      user.kept.push({ seq: this.seq, at: this.now(), event });
      this.prune(user);
      for (const listener of [...user.listeners]) listener(event, `${this.instance}:${this.seq}`);
    });
    this.users.set(userId, user);
    return user;
  }

  private prune(user: Followed): void {
    const oldest = this.now() - REPLAY_WINDOW_MS;
    while (user.kept.length > 0 && (user.kept.length > KEPT_EVENTS || user.kept[0]!.at < oldest)) {
      user.heardAfter = user.kept.shift()!.seq;
    }
  }

  private missed(user: Followed, lastEventId: string): Array<{ event: UserEvent; seq: number }> {
    const [instance, number] = lastEventId.split(':');
    const seq = Number(number);
    if (instance === this.instance && Number.isInteger(seq) && seq >= user.heardAfter && seq <= this.seq) {
      return user.kept.filter((kept) => kept.seq > seq);
    }
    return EVERYTHING_CHANGED.map((event) => ({ event, seq: this.seq }));
  }
}
