import { vaultMessages } from '../../../shared/vault-messages';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { JournalEntryRow, JournalRecordingRow, VaultsTable } from '../../db/tables';
import { AppError, conflict } from '../../errors';
import { findJournalKeys } from '../repo';
import type { EntryCodec } from './codec';
import { SealedCodec } from './sealed';
import { ServerKeyCodec } from './server-key';

export type { EntryCodec, SealedWords, UndoMark, Words } from './codec';

const errors = vaultMessages.errors;

/** The journal's vault, as its writers need it: the public key and whether it is being turned off. */
export type JournalSeal = Pick<VaultsTable, 'public_key' | 'state'>;

/**
 * How a journal keeps its words, read once in each change's transaction (changeJournal hands it to
 * the writer, so a vault turned on or off at that moment is seen wholly or not at all): readable
 * under the server's key, or sealed to the vault's public key (docs/vault.md). It hands out the codec
 * each entry is written with (new entries, continuations, an entry as it is, a recording), so no
 * writer asks which: none can write readable words into a sealed journal or entry.
 */
export class JournalWords {
  private constructor(
    private readonly ctx: AppContext,
    private readonly userId: string,
    private readonly salt: string | undefined,
    private readonly seal: JournalSeal | undefined,
  ) {}

  static async read(ctx: AppContext, db: Db, userId: string): Promise<JournalWords> {
    const { salt, seal } = await findJournalKeys(db, userId);
    return new JournalWords(ctx, userId, salt, seal);
  }

  /** The public key new words are sealed to: while the vault is sealing or on; none without a vault or while it is turned off. */
  get sealedTo(): string | undefined {
    return this.seal && this.seal.state !== 'unsealing' ? this.seal.public_key : undefined;
  }

  /**
   * A new entry's codec: sealed while new words are sealed; under the server's key otherwise, except
   * for words sealed on arrival, which only a sealed entry can hold.
   */
  forNewEntry(sealedOnArrival = false): EntryCodec {
    if (this.sealedTo) return this.vaultCodec();
    if (!sealedOnArrival) return this.serverKeyCodec();
    // Turning the vault off waits for texts sealed on arrival (vault/service.ts), so it is still here.
    if (!this.seal) throw new Error('A text sealed on arrival, for a journal without a vault');
    return this.vaultCodec();
  }

  /** The codec of the entries that continue `latest` (a day past its length): a new entry's, but sealed after a sealed part while the vault is turned off. */
  forContinuation(latest: Pick<JournalEntryRow, 'sealed'>, sealedOnArrival = false): EntryCodec {
    const codec = this.forNewEntry(sealedOnArrival);
    return codec.sealed ? codec : this.forEntry(latest);
  }

  /** The codec an entry is written with: as its words are kept now. */
  forEntry(entry: Pick<JournalEntryRow, 'sealed'>): EntryCodec {
    return entry.sealed === null ? this.serverKeyCodec() : this.vaultCodec();
  }

  /** The codec a recording's transcript is kept with: as its audio is. */
  forRecording(recording: Pick<JournalRecordingRow, 'sealed'>): EntryCodec {
    return Number(recording.sealed) ? this.vaultCodec() : this.serverKeyCodec();
  }

  /** Words in the clear (a web save of a readable journal, an import chunk): refused while new words are sealed. */
  takeReadable(message: string = errors.sealedOnly): ServerKeyCodec {
    if (this.sealedTo) throw conflict(message);
    return this.serverKeyCodec();
  }

  /** Words in the clear for this entry: refused (409 `message`) when it is sealed, and while new words are sealed. */
  readableEntry(entry: Pick<JournalEntryRow, 'sealed'>, message: string = errors.sealedOnly): ServerKeyCodec {
    if (entry.sealed !== null) throw conflict(message);
    return this.takeReadable();
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

  private serverKeyCodec(): ServerKeyCodec {
    if (this.salt === undefined) throw new AppError('NOT_FOUND', 'Profile not found');
    return new ServerKeyCodec(this.ctx, this.userId, this.salt);
  }

  private vaultCodec(): SealedCodec {
    // A sealed entry or recording exists only beside its vault (turning it off ends once none is left).
    if (!this.seal) throw new Error('A sealed entry without a vault');
    return new SealedCodec(this.ctx, this.userId, this.seal.public_key);
  }
}
