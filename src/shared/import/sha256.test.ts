import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './sha256';

describe('sha256Hex', () => {
  it('matches node:crypto for empty, short, block-edge, long and non-ASCII text', () => {
    const texts = ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'x'.repeat(1000), '2022-06-01 07:15\nCafé ☕ 日本語\n🙂 body'];
    for (const text of texts) expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
  });
});
