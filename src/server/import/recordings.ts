import type { ImportReason } from '../../shared/import';
import type { ImportedAudio, ImportedEntry } from '../../shared/import/types';
import type { ReasonCounter } from '../../shared/import/reasons';
import { vaultMessages } from '../../shared/vault-messages';
import { VOICE_MAX_BYTES, voiceMessages } from '../../shared/voice-messages';
import type { AppContext } from '../context';
import { AppError, conflict } from '../errors';
import { JournalWords } from '../journal/words';
import { addRecording } from '../voice/recordings';
import { fingerprinter } from './fingerprints';
import type { ImportReader } from './reader/client';
import * as repo from './repo';

// An import's voice recordings enter through the recordings' one door (voice/recordings.ts): decoded
// to know they are audio and how long, encrypted at rest, added once by their source key. They are
// added after their chunk's entries commit, one at a time: no transaction waits on a decoder, and
// only one recording's bytes are in memory at once.

interface RecordingsWriter {
  ctx: AppContext;
  owner: { userId: string };
  reader: Pick<ImportReader, 'files'>;
}

type AudioReason = Extract<ImportReason, `audio_${string}`>;

/** Whether a chunk's entries name recordings, to be added once the chunk is in. */
export const namesRecordings = (entries: readonly ImportedEntry[]) => entries.some((e) => !e.repeated && e.audios.length > 0);

/** How the summary counts a recording addRecording refused; null for a failure that is not the file's. */
function refusal(error: unknown): AudioReason | null {
  if (!(error instanceof AppError)) return null;
  if (error.code === 'PAYLOAD_TOO_LARGE') return 'audio_over_limit';
  if (error.code !== 'INVALID_INPUT') return null;
  // Not audio, or longer than a voice note may be.
  return error.message === voiceMessages.errors.notAudio ? 'audio_unreadable' : 'audio_over_limit';
}

/** Adds one recording to its entry; answers why it was left out, or null. */
async function addOne(w: RecordingsWriter, entryId: string, entry: ImportedEntry, audio: ImportedAudio & { path: string }): Promise<AudioReason | null> {
  const file = (await w.reader.files([audio.path], VOICE_MAX_BYTES)).get(audio.path);
  if (file === 'too-large') return 'audio_over_limit';
  if (!file) return 'audio_unreadable';
  try {
    await addRecording(w.ctx, w.owner.userId, {
      audio: file,
      origin: 'import',
      receivedAt: new Date(audio.recordedAt ?? entry.createdAt),
      entryId,
      transcript: audio.transcript,
      transcriptInText: audio.transcriptInText,
      keepEntryTime: true,
      sourceKey: audio.sourceKey,
    });
    return null;
  } catch (error) {
    // The entry was deleted since its chunk came in: nothing to add it to.
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
    const reason = refusal(error);
    if (!reason) throw error;
    return reason;
  }
}

/**
 * Adds the recordings of a chunk's entries once the entries are in the journal (just committed, or
 * committed before a restart), each to its entry unless the journal has it already: added by this
 * import before, or our own export brought back into the journal it came from. What is left out is
 * counted in `tally`.
 */
export async function addImportedRecordings(w: RecordingsWriter, entries: readonly ImportedEntry[], tally: ReasonCounter): Promise<void> {
  const { ctx } = w;
  const { userId } = w.owner;
  const named = entries.filter((e) => !e.repeated && e.audios.length > 0);
  if (named.length === 0) return;
  // As a chunk does (write-chunk.ts): no readable words go into a journal whose vault was turned on.
  if ((await JournalWords.read(ctx, ctx.db, userId)).sealedTo) throw conflict(vaultMessages.errors.importVaultOn);
  const audios = named.flatMap((e) => e.audios);
  const present = await repo.existingRecordings(ctx.db, userId, audios.map((a) => a.sourceKey), audios.flatMap((a) => a.originalId ?? []));
  // Each entry as the chunk wrote it: by where it came from, or by its id (our own export).
  const fingerprintsOf = fingerprinter(ctx, userId);
  const fingerprints = new Map(named.map((e) => [e, fingerprintsOf(e.origin)] as const));
  const known = await repo.knownFingerprints(ctx.db, userId, [...fingerprints.values()].flatMap((f) => [f.current, f.earlier]));
  const own = await repo.existingEntryIds(ctx.db, userId, named.flatMap((e) => e.originalId ?? []));
  for (const entry of named) {
    const f = fingerprints.get(entry)!;
    const entryId = known.get(f.current) ?? known.get(f.earlier) ?? (entry.originalId && own.has(entry.originalId) ? entry.originalId : null);
    for (const audio of entry.audios) {
      if (present.has(audio.sourceKey) || (audio.originalId && present.has(audio.originalId))) continue;
      const example = `${audio.fileName} (${entry.entryDate})`;
      if (!audio.path) {
        tally.add('audio_not_in_file', example);
        continue;
      }
      // An entry left out (with nothing in it but recordings the file does not hold) takes none.
      if (!entryId) continue;
      const left = await addOne(w, entryId, entry, { ...audio, path: audio.path });
      if (left) tally.add(left, example);
    }
  }
}
