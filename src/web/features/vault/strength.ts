// How guessable a new vault passphrase is, judged by zxcvbn (`judge.ts`). zxcvbn and its dictionaries
// (about 850 KB gzipped) are fetched only when a passphrase form opens.

export type Strength = 'empty' | 'weak' | 'fair' | 'good' | 'strong';

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
