import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';
import type { Judgement, Strength } from './strength';

/**
 * The guesses zxcvbn must reckon a vault passphrase takes, and its least length: the wrapped key can
 * be attacked offline by whoever has a copy of the database.
 */
export const MIN_PASSPHRASE_GUESSES = 1e10;
export const MIN_PASSPHRASE_LENGTH = 12;

const zxcvbn = new ZxcvbnFactory({
  translations: english.translations,
  graphs: common.adjacencyGraphs,
  dictionary: { ...common.dictionary, ...english.dictionary },
});

/** Words of this page a passphrase should not lean on. */
const PAGE_WORDS = ['jotline', 'journal', 'vault', 'passphrase'];

/** Above the least, the bar fills by orders of magnitude: 10^12 guesses and 10^14. */
function strengthOf(log10: number): Strength {
  if (log10 < 12) return 'fair';
  if (log10 < 14) return 'good';
  return 'strong';
}

/** zxcvbn's verdict on a new passphrase, as the form shows it. */
export function judgePassphrase(passphrase: string): Judgement {
  const text = passphrase.normalize('NFC');
  if (!text) return { strength: 'empty', acceptable: false, warning: null, suggestions: [] };
  const result = zxcvbn.check(text, PAGE_WORDS);
  const acceptable = result.guesses >= MIN_PASSPHRASE_GUESSES && [...text].length >= MIN_PASSPHRASE_LENGTH;
  const { warning, suggestions } = result.feedback;
  if (acceptable) return { strength: strengthOf(result.guessesLog10), acceptable, warning, suggestions };
  // zxcvbn keeps quiet above its score 2 (10^8 guesses); a refused passphrase still gets its first advice.
  const advice = warning || suggestions.length ? suggestions : [english.translations.suggestions.anotherWord];
  return { strength: 'weak', acceptable, warning, suggestions: advice };
}
