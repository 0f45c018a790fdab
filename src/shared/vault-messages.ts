// The Vault's words (docs/vault.md), for the server's answers, the Vault card and the privacy page.

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export const vaultMessages = {
  /** The e-mails a change to the vault sends the account's address (auth/fresh-proof.ts). */
  mail: {
    keysChanged: 'Your vault passphrase or recovery code was changed',
    turningOff: 'Turning your vault off was started',
    off: 'Your vault was turned off',
  },
  errors: {
    publicKeyInvalid: 'The vault key must be the base64 of a 32-byte public key.',
    wrappedKeysInvalid: 'The wrapped keys must be a JSON object.',
    wrappedKeysTooLarge: 'The wrapped keys are too large.',
    alreadyOn: 'Your vault is already on. Turn it off before setting up a new one.',
    off: 'Your vault is off.',
    otherKey: 'Your vault has changed since this page opened. Reload the page and try again.',
    notTurningOff: 'Your vault is not being turned off.',
    textsWaiting: 'A text you sent is still being added to your journal, sealed. Try again in a minute.',
    stillSealed: (n: number) => `${plural(n, 'entry is', 'entries are')} still sealed. Open them before turning the vault off.`,
    photosMismatch: 'Send every photo of the entry, opened.',
    photoInvalid: 'An opened photo is not a picture we can keep.',
    segmentInvalid: 'Sealed entries must be a list of base64 sealed segments.',
    segmentTooLong: 'A sealed segment is too long.',
    /** Plain words sent for a journal that is sealed in the browser (an old page, or another app). */
    sealedOnly: 'Your vault is on: entries are sealed in your browser before they are sent. Reload the page and try again.',
    sealedAndPlain: 'A sealed entry carries its words only in its sealed segments.',
    sealedPhotosOnly: 'Photos of a sealed entry must be sealed in your browser before they are sent. Reload the page and try again.',
    sealedPhotoInvalid: 'A sealed photo must come with its sealed thumbnail, its sealed name and its type.',
    turningOff: 'Your vault is being turned off. Try again when it is done.',
    importUnderWay: 'An import into your journal is under way. Turn the vault on once it is done.',
    importVaultOn: 'Your vault was turned on during this import, so the server stopped writing it. What came in before stays; import the file again in Settings, where it is read and sealed in your browser.',
    browserOnly: 'Your vault is on: your journal can only be exported or imported in your browser, where it is unlocked.',
  },

  /** What the server still sees of a vault journal: the card and the privacy page say it plainly. */
  serverSees: [
    'that a text arrived, and when',
    'how long each text and entry is, and how many photos it has',
    'the day each entry belongs to, and its time zone',
    'counts: entries, words, streaks, and the days you wrote (recaps and milestones use only these)',
    'the words of a text as it arrives, before it is sealed; they are never logged or kept',
    'a voice note or call as it arrives: the server, and the transcription service it is sent to, hear it once to write its transcript, then it is sealed with its transcript; how long it is stays visible',
  ],
  serverCannotSee: 'Once sealed, no one running Jotline can read your entries, titles, tags or photos: not from the database, not from a backup, and not with the server and its keys.',
  lossWarning: 'If you forget your vault passphrase and lose your recovery code, no one can ever read your journal again. Not you, and not us: we cannot reset it.',

  /** The journal of a Vault user (the journal page). */
  journal: {
    lockedTitle: 'Vault locked',
    lockedLead: 'Your journal is sealed. Unlock it with your vault passphrase, or your recovery code, to read and write it here. Signing in opens your account, not your vault.',
    locked: 'Your vault is locked. Unlock it to read your journal.',
    exportLocked: 'Your vault is locked. Unlock it to export: your journal is opened and exported here, in your browser.',
    lock: 'Lock vault',
    loading: 'Loading your vault…',
    unopenable: '[This part could not be opened with your vault key.]',
    turnedOff: 'Your vault was turned off. Reload the page to read your journal.',
  },

  card: {
    title: 'Vault',
    description: 'Seal your journal so that no one running Jotline can read it, even though it arrives by text.',
    loading: 'Loading your vault…',
    loadError: 'We could not load your vault settings. Try again in a moment.',
    retry: 'Try again',
    serverSeesTitle: 'What we still see',
    understand: 'I understand that if I forget my passphrase and lose my recovery code, my journal can never be read again.',
    setUp: 'Set up the vault',
    cancel: 'Cancel',

    passphraseLabel: 'Vault passphrase',
    passphraseAgainLabel: 'Type it again',
    passphraseHelp: 'Not your sign-in password. A sentence of four or more words that only you would think of works well: at least 12 characters.',
    strengthLabel: 'Strength',
    strength: { empty: '', weak: 'Too weak', fair: 'Fair', good: 'Good', strong: 'Strong' },
    tooWeak: 'Choose a longer or less guessable passphrase.',
    mismatch: 'The two passphrases are not the same.',
    continue: 'Continue',
    makingKeys: 'Making your keys. This takes a few seconds…',

    codeTitle: 'Your recovery code',
    codeLead: 'If you forget your passphrase, this code is the only other way into your vault. We show it once and never keep it. Download or print it, and keep it somewhere safe, away from this device.',
    download: 'Download',
    print: 'Print',
    saved: 'I have saved it',
    codeFileName: 'jotline-vault-recovery-code.txt',
    codeFile: (code: string) => `Jotline vault recovery code\n\n${code}\n\nThis code opens your vault if you forget your passphrase. Keep it safe and private.\n`,

    confirmLabel: (group: number) => `Type group ${group} of your recovery code`,
    confirmHelp: 'The groups are the blocks of five between the dashes.',
    confirmWrong: (group: number) => `That is not group ${group} of your recovery code. Check the copy you saved.`,
    backToCode: 'Show the code again',
    turnOn: 'Turn on the vault',

    sealing: 'Sealing your journal…',
    sealedOf: (sealed: number, total: number) => `${sealed.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} entries sealed`,
    sealingLeave: 'You can close this page: sealing goes on without it, and new texts are sealed already.',
    sealingStopped: 'Sealing stopped before it finished. Your journal is safe; try again to carry on.',
    continueSealing: 'Continue sealing',

    onLead: 'Your vault is on. Your journal is sealed: only your passphrase or your recovery code opens it.',
    locked: 'Locked',
    unlocked: 'Unlocked in this tab',
    lock: 'Lock vault',
    idleLabel: 'Lock by itself after',
    idleChoice: (minutes: number) => `${minutes} minutes without use`,

    unlock: 'Unlock',
    unlocking: 'Unlocking…',
    useCode: 'Use my recovery code instead',
    usePassphrase: 'Use my passphrase instead',
    codeLabel: 'Recovery code',
    wrongPassphrase: 'That passphrase does not open your vault.',
    wrongCode: 'That recovery code does not open your vault.',
    malformedCode: 'A recovery code is 25 letters and digits, in five groups.',
    unlockFailed: 'Your vault could not be unlocked here. Reload the page and try again.',

    changePassphrase: 'Change passphrase',
    newPassphraseLabel: 'New vault passphrase',
    savePassphrase: 'Save passphrase',
    passphraseChanged: 'Passphrase changed. Your recovery code stays the same.',

    turnOff: 'Turn off vault',
    turnOffLead: 'Turning the vault off opens every entry in this browser and hands it back to the server’s own encryption, which whoever runs the server can open. Keep this page open until it is done.',
    turnOffConfirm: 'Open my journal and turn off the vault',
    turningOff: 'Turning your vault off…',
    openedOf: (opened: number, total: number) => `${opened.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} entries opened`,
    turnOffStopped: 'Turning the vault off stopped before it finished. Your journal is safe; unlock and try again to carry on.',
    continueTurningOff: 'Continue turning off',
    turnedOff: 'Your vault is off.',
  },
} as const;
