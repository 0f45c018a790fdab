import { isSession, type Session } from './types';

/**
 * The session lives in localStorage (spec 9) so every tab shares it. Reads go to storage each time,
 * so a refresh done by another tab is seen at once; the parsed value is cached per raw string so
 * React's useSyncExternalStore gets a stable snapshot.
 */
const STORAGE_KEY = 'jotline.session';

type Listener = () => void;
const listeners = new Set<Listener>();
let cachedRaw: string | null = null;
let cachedSession: Session | null = null;
// When storage is blocked (private modes, quotas) the session lives in memory until reload.
let storageBlocked = false;
let memoryRaw: string | null = null;

function readRaw(): string | null {
  if (storageBlocked) return memoryRaw;
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    storageBlocked = true;
    return memoryRaw;
  }
}

function writeRaw(raw: string | null) {
  memoryRaw = raw;
  if (storageBlocked) return;
  try {
    if (raw === null) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, raw);
  } catch {
    storageBlocked = true;
  }
}

function notify() {
  for (const listener of [...listeners]) listener();
}

function onStorage(event: StorageEvent) {
  // key is null when another tab cleared all of storage.
  if (event.key === STORAGE_KEY || event.key === null) notify();
}

export const sessionStore = {
  get(): Session | null {
    const raw = readRaw();
    if (raw !== cachedRaw) {
      cachedRaw = raw;
      cachedSession = parse(raw);
    }
    return cachedSession;
  },

  set(session: Session): void {
    writeRaw(JSON.stringify(session));
    notify();
  },

  clear(): void {
    writeRaw(null);
    notify();
  },

  /** Calls back on changes from this tab and from other tabs (the storage event). */
  subscribe(listener: Listener): () => void {
    if (listeners.size === 0 && typeof window !== 'undefined') window.addEventListener('storage', onStorage);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
    };
  },
};

function parse(raw: string | null): Session | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isSession(value) ? value : null;
  } catch {
    return null;
  }
}

/** Seconds until the access token expires (negative once it has). */
export function secondsLeft(session: Session, nowMs = Date.now()): number {
  return session.expires_at - nowMs / 1000;
}
