import { vaultMessages } from '../../shared/vault-messages';
import type { Db } from '../db/database';
import type { JournalEntryRow, VaultsTable } from '../db/tables';
import { conflict } from '../errors';
import { findJournalSeal } from './repo';

const errors = vaultMessages.errors;

/** The journal's vault, as its writers need it: the public key and whether it is being turned off. */
export type JournalSeal = Pick<VaultsTable, 'public_key' | 'state'>;

/**
 * How a journal keeps its words, read once in each change's transaction (changeJournal hands it to
 * the writer, so a vault turned on or off at that moment is seen wholly or not at all): readable
 * under the server's key, or sealed to the vault's public key (docs/vault.md). Writers ask it what
 * they may write instead of reading the vault themselves, so none can write readable words into a
 * sealed journal.
 */
export class JournalWords {
  constructor(readonly seal: JournalSeal | undefined) {}

  static async read(db: Db, userId: string): Promise<JournalWords> {
    return new JournalWords(await findJournalSeal(db, userId));
  }

  /** The public key new words are sealed to: while the vault is sealing or on; none without a vault or while it is turned off. */
  get sealedTo(): string | undefined {
    return this.seal && this.seal.state !== 'unsealing' ? this.seal.public_key : undefined;
  }

  /** Words in the clear (a web save of a readable journal, an import chunk): refused while new words are sealed. */
  takeReadable(message: string = errors.sealedOnly): void {
    if (this.sealedTo) throw conflict(message);
  }

  /** Words the browser sealed: refused without a vault. */
  takeSealed(): JournalSeal {
    if (!this.seal) throw conflict(errors.off);
    return this.seal;
  }

  /** Sealed words go only into a sealed entry (sealEntryFirst made it one, unless the vault is being turned off). */
  requireSealed(entry: Pick<JournalEntryRow, 'sealed'>): void {
    if (entry.sealed === null) throw conflict(errors.turningOff);
  }
}
