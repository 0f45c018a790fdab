import type { VaultKeys } from './vault-crypto';

// The unlocked vault's keys, in this tab's memory only (never storage): gone when the tab closes,
// when the user locks it, or after the idle time they picked.

export const IDLE_LOCK_CHOICES = [5, 15, 30, 60] as const;
export type IdleLockMinutes = (typeof IDLE_LOCK_CHOICES)[number];
const DEFAULT_IDLE_MINUTES: IdleLockMinutes = 15;
const IDLE_KEY = 'jotline.vault.idleLockMinutes';
const ACTIVITY = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

let keys: VaultKeys | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

const notify = () => listeners.forEach((listener) => listener());

export function idleLockMinutes(): IdleLockMinutes {
  const stored = Number(localStorage.getItem(IDLE_KEY));
  return (IDLE_LOCK_CHOICES as readonly number[]).includes(stored) ? (stored as IdleLockMinutes) : DEFAULT_IDLE_MINUTES;
}

export function setIdleLockMinutes(minutes: IdleLockMinutes): void {
  localStorage.setItem(IDLE_KEY, String(minutes));
  if (keys) restartIdleTimer();
}

function restartIdleTimer(): void {
  clearTimeout(timer);
  timer = setTimeout(lockVault, idleLockMinutes() * 60_000);
}

function watchActivity(on: boolean): void {
  for (const type of ACTIVITY) {
    if (on) window.addEventListener(type, restartIdleTimer, { passive: true, capture: true });
    else window.removeEventListener(type, restartIdleTimer, { capture: true });
  }
}

/** Keeps the keys until the vault is locked; any earlier keys are wiped first. */
export function unlockVault(next: VaultKeys): void {
  if (keys && keys !== next) keys.privateKey.fill(0);
  keys = next;
  watchActivity(true);
  restartIdleTimer();
  notify();
}

/** Wipes the private key from memory. */
export function lockVault(): void {
  clearTimeout(timer);
  watchActivity(false);
  if (!keys) return;
  keys.privateKey.fill(0);
  keys = null;
  notify();
}

export function vaultKeys(): VaultKeys | null {
  return keys;
}

/** For useSyncExternalStore. */
export function subscribeToVaultKeys(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
