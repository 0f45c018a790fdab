import { EventEmitter } from 'node:events';
import type { ImportProgressEvent } from '../shared/import';

/** What the web app hears on its realtime channel. */
export type UserEvent =
  | { type: 'entries.changed'; entryId?: string }
  | { type: 'profile.updated'; phone_verified?: boolean }
  // A session of the user ended (sign-out, password change): open streams check theirs. Never sent to the page.
  | { type: 'sessions.changed' }
  // An import moved on (import/): its counts, never journal text.
  | ImportProgressEvent;

/**
 * Fans events out to a user's open connections: in-process on SQLite; on PostgreSQL across
 * instances through LISTEN/NOTIFY (events/pg-bus.ts).
 */
export interface EventBus {
  publish(userId: string, event: UserEvent): void;
  subscribe(userId: string, listener: (event: UserEvent) => void): () => void;
}

export function createLocalEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (userId, event) => void emitter.emit(userId, event),
    subscribe(userId, listener) {
      emitter.on(userId, listener);
      return () => emitter.off(userId, listener);
    },
  };
}
