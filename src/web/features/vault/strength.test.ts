import { describe, expect, it } from 'vitest';
import { MIN_PASSPHRASE_BITS, passphraseBits, strengthOf } from './strength';

describe('the passphrase strength estimate', () => {
  it('rates the shapes people pick weak, and long passphrases strong', () => {
    expect(strengthOf('')).toBe('empty');
    for (const weak of ['password1', 'Journal123!', 'aaaaaaaaaaaaaaaa', 'abcdefghijklmnop', 'qwerty2026', 'Tr0ub4dor']) expect(strengthOf(weak)).toBe('weak');
    expect(strengthOf('correct horse battery staple')).toBe('strong');
    expect(strengthOf('kettle orbit 94 plum')).not.toBe('weak');
  });

  it('grows with length and with kinds of characters', () => {
    expect(passphraseBits('plumkettle')).toBeLessThan(passphraseBits('plumkettleorbit'));
    expect(passphraseBits('plumkettleorbit')).toBeLessThan(passphraseBits('plumKettle-orbit9'));
    expect(passphraseBits('tidal marble lantern')).toBeGreaterThanOrEqual(MIN_PASSPHRASE_BITS);
  });
});
