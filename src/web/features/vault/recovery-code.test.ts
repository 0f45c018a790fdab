import { describe, expect, it } from 'vitest';
import { isWellFormedRecoveryCode, newRecoveryCode, normalizeRecoveryCode, recoveryGroup } from './recovery-code';

describe('the recovery code', () => {
  it('is five groups of five symbols that are never I, L, O or U', () => {
    for (let i = 0; i < 50; i++) {
      const code = newRecoveryCode();
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$/);
      expect(isWellFormedRecoveryCode(code)).toBe(true);
    }
  });

  it('uses every symbol alike (the random byte’s low five bits)', () => {
    let call = 0;
    const code = newRecoveryCode((bytes) => bytes.map(() => call++));
    expect(code).toBe('01234-56789-ABCDE-FGHJK-MNPQR');
  });

  it('reads back however it is typed', () => {
    expect(normalizeRecoveryCode(' 7mzq4 k2d9x-ab0c1 oil23 zzzzz ')).toBe('7MZQ4-K2D9X-AB0C1-01123-ZZZZZ');
    expect(isWellFormedRecoveryCode('7mzq4k2d9xab0c1oil23zzzzz')).toBe(true);
    expect(isWellFormedRecoveryCode('7MZQ4-K2D9X-AB0C1-01123')).toBe(false);
    expect(isWellFormedRecoveryCode('7MZQ4-K2D9X-AB0C1-01123-ZZZZU')).toBe(false);
    expect(recoveryGroup('7mzq4-k2d9x-ab0c1-01123-zzzzz', 3)).toBe('AB0C1');
  });
});
