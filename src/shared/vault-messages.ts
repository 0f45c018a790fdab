// The Vault's words (docs/vault.md), for the server's answers, the Vault card and the privacy page.

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export const vaultMessages = {
  errors: {
    publicKeyInvalid: 'The vault key must be the base64 of a 32-byte public key.',
    wrappedKeysInvalid: 'The wrapped keys must be a JSON object.',
    wrappedKeysTooLarge: 'The wrapped keys are too large.',
    alreadyOn: 'Your vault is already on. Turn it off before setting up a new one.',
    off: 'Your vault is off.',
    otherKey: 'Your vault has changed since this page opened. Reload the page and try again.',
    notTurningOff: 'Your vault is not being turned off.',
    stillSealed: (n: number) => `${plural(n, 'entry is', 'entries are')} still sealed. Open them before turning the vault off.`,
    photosMismatch: 'Send every photo of the entry, opened.',
    photoInvalid: 'An opened photo is not a picture we can keep.',
  },

  /** What the server still sees of a vault journal: the card and the privacy page say it plainly. */
  serverSees: [
    'that a text arrived, and when',
    'how long each text and entry is, and how many photos it has',
    'the day each entry belongs to',
    'counts: entries, words, streaks, and the days you wrote (recaps and milestones use only these)',
    'the words of a text for the moment it is processed, before it is sealed; they are never logged or kept',
  ],
  serverCannotSee: 'Once sealed, no one running Jotline can read your entries, titles, tags or photos: not from the database, not from a backup, and not with the server and its keys.',
  lossWarning: 'If you forget your vault passphrase and lose your recovery code, no one can ever read your journal again. Not you, and not us: we cannot reset it.',
} as const;
