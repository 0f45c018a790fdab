// How guessable a new vault passphrase is, judged by zxcvbn (`judge.ts`). The wrapped key can be
// attacked offline by whoever has a copy of the database, so a passphrase must hold out for at least
// 10^10 guesses. zxcvbn and its dictionaries are fetched only when a passphrase form opens.

export type Strength = 'empty' | 'weak' | 'fair' | 'good' | 'strong';

/** The guesses zxcvbn must reckon a vault passphrase takes, and its least length. */
export const MIN_PASSPHRASE_GUESSES = 1e10;
export const MIN_PASSPHRASE_LENGTH = 12;

export interface Judgement {
  strength: Strength;
  /** Whether the passphrase may be used. */
  acceptable: boolean;
  /** zxcvbn's feedback, in its own words. */
  warning: string | null;
  suggestions: string[];
}

export type Judge = (passphrase: string) => Judgement;

let loading: Promise<Judge> | undefined;

/** zxcvbn with its common and English dictionaries, fetched the first time a passphrase is chosen. */
export function loadJudge(): Promise<Judge> {
  loading ??= import('./judge')
    .then((module) => module.judgePassphrase)
    .catch((error: unknown) => {
      loading = undefined; // a failed download may be tried again
      throw error;
    });
  return loading;
}
