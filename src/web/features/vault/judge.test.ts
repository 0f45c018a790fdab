import { describe, expect, it } from 'vitest';
import { judgePassphrase } from './judge';

describe('judging a vault passphrase with zxcvbn', () => {
  it('refuses under 10^10 guesses or 12 characters, and takes four random words', () => {
    for (const guessable of ['Summer2024!!', 'Jennifer1985!', 'baseball1234', 'Jotline2026!!', 'password password']) {
      expect(judgePassphrase(guessable)).toMatchObject({ strength: 'weak', acceptable: false });
    }
    // Random enough (10^11 guesses), but shorter than the card promises.
    expect(judgePassphrase('Xk9#mQ2$vL7')).toMatchObject({ strength: 'weak', acceptable: false });
    expect(judgePassphrase('crater velvet oboe mantis')).toEqual({ strength: 'strong', acceptable: true, warning: null, suggestions: [] });
    expect(judgePassphrase('')).toMatchObject({ strength: 'empty', acceptable: false });
  });

  it("gives zxcvbn's own feedback, and its first advice where zxcvbn has none", () => {
    expect(judgePassphrase('baseball1234')).toMatchObject({ warning: 'This is similar to a commonly used password.', suggestions: ['Add more words that are less common.'] });
    expect(judgePassphrase('journal2026').warning).toBe('There should not be any personal or page related data.');
    expect(judgePassphrase('Summer2024!!')).toMatchObject({ warning: null, suggestions: ['Add more words that are less common.'] });
  });

  it('judges the passphrase as it will be used: normalised to NFC', () => {
    expect(judgePassphrase('cafe\u0301 crater velvet oboe')).toEqual(judgePassphrase('caf\u00e9 crater velvet oboe'));
  });
});
