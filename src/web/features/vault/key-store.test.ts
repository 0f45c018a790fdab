import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { idleLockMinutes, lockVault, setIdleLockMinutes, unlockVault, vaultKeys } from './key-store';

const keysOf = () => ({ publicKey: new Uint8Array(32).fill(1), privateKey: new Uint8Array(32).fill(7) });

describe('the unlocked vault’s keys', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    lockVault();
    vi.useRealTimers();
  });

  it('are held until locked, and locking overwrites the private key', () => {
    const keys = keysOf();
    unlockVault(keys);
    expect(vaultKeys()).toBe(keys);
    lockVault();
    expect(vaultKeys()).toBeNull();
    expect(keys.privateKey.every((b) => b === 0)).toBe(true);
  });

  it('lock themselves after the idle time the user picked, counted from the last activity', () => {
    expect(idleLockMinutes()).toBe(15);
    setIdleLockMinutes(5);
    unlockVault(keysOf());
    vi.advanceTimersByTime(4 * 60_000);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    vi.advanceTimersByTime(4 * 60_000);
    expect(vaultKeys()).not.toBeNull();
    vi.advanceTimersByTime(60_000 + 1);
    expect(vaultKeys()).toBeNull();
  });
});
