import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { normalizeEntryText, type EntryRecording } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { voiceMessages } from '../../shared/voice-messages';
import { isEncryptedPhoto, decryptPhotoBytes, STORED_CONTENT_TYPE } from '../at-rest/photo-files';
import type { AppContext } from '../context';
import { isVaultFile } from '../crypto/sealed-box';
import type { Db } from '../db/database';
import type { JournalEntryRow, JournalRecordingRow, RecordingOrigin } from '../db/tables';
import { conflict, notFound } from '../errors';
import { newId } from '../ids';
import { TRANSCRIPTIONS } from '../jobs/wakeups';
import { changeJournal } from '../journal/changes';
import { localDate } from '../journal/dates';
import { loadOwner, ownerSalt } from '../journal/owner';
import { findEntry, touchEntry } from '../journal/repo';
import { sealDayEntryFirst, sealEntryBeforeAdding } from '../journal/seal-entries';
import { appendToSmsDay } from '../journal/sms-entries';
import type { EntryCodec } from '../journal/words';
import { writingPhotoFiles } from '../photos/service';
import { probeAudio } from './audio';
import { decryptRecordingRows, presentRecording } from './present';
import { transcribeOnce } from './transcription/engine';
import { hearInMemory } from './transcription/in-memory';
import { deleteRecordingRow, findRecording, findRecordingBySource, insertRecording, listRecordings, nextRecordingPosition, updateRecording } from './repo';

// Voice recordings: the one door through which a recording enters, changes and leaves a journal
// (a call, an MMS voice note, the web, an import). The audio is stored like a photo: encrypted with
// the owner's key, or, for a vault user, sealed to the vault's public key in the same step that
// writes it. Every change passes the journal's one write path (changeJournal).
//
// A recording's transcript status: 'done' (transcribed; for a vault user it may be sealed),
// 'pending' (to be heard: by the transcription job, or, for a vault user's note, once in memory as
// it arrives: transcription/in-memory.ts), 'failed' (not transcribed: the service failed for a day,
// or none is configured, or a vault user's one try failed). Without a transcription service or
// WHISPER_MODEL a recording is 'failed' from the start, so the web shows "Not transcribed", and
// "Transcribe again" answers that transcription is not set up.

export interface AddRecordingInput {
  audio: Buffer;
  /** The type the sender declared; the audio's own container decides what it is kept as. */
  mimeType?: string;
  origin: RecordingOrigin;
  receivedAt: Date;
  /** The entry it belongs to; without, the day's phone entry for `entryDate`. */
  entryId?: string;
  /** The day (YYYY-MM-DD) whose phone entry takes it; by default the local day of `receivedAt` in the user's zone. */
  entryDate?: string;
  /** A transcript already known (an import, a development call); null or absent: to be transcribed. */
  transcript?: string | null;
  /** Where it came from (`call:<RecordingSid>`, `mms:<MessageSid>:<index>`): added once, however often it arrives. */
  sourceKey?: string;
  /** The entry's text holds the transcript already (an import of our own export): kept on the recording, not added again. */
  transcriptInText?: boolean;
  /** An import's: the entry keeps the time it was last changed that the file gives, its recording having come with it. */
  keepEntryTime?: boolean;
}

export interface AddedRecording {
  recording: EntryRecording;
  entryId: string;
  /** False when `sourceKey` was already in the journal: nothing was added, the existing one is returned. */
  added: boolean;
}

const EXTENSIONS: Record<string, string> = {
  'audio/amr': 'amr',
  'audio/3gpp': '3gp',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/wav': 'wav',
  'audio/webm': 'webm',
};

/** Storage key of a new recording: `user/entry/timestamp-rand.ext` (the owner's id first, as photos). */
function newRecordingKey(userId: string, entryId: string, now: Date, mimeType: string): string {
  return `${userId}/${entryId}/${now.getTime()}-${randomBytes(8).toString('hex')}.${EXTENSIONS[mimeType] ?? 'bin'}`;
}

/** Whether recordings are transcribed (a transcription service, or Whisper on this server, is configured). */
export function transcriptionConfigured(ctx: AppContext): boolean {
  return ctx.config.voice.transcribes;
}

async function presentStored(ctx: AppContext, userId: string, row: JournalRecordingRow): Promise<EntryRecording> {
  return presentRecording(ctx, decryptRecordingRows(ctx, userId, await ownerSalt(ctx, userId), [row])[0]!);
}

/**
 * Adds a recording to the user's journal: the audio is probed (refused when it is not audio, too
 * long or too large), stored encrypted (or sealed to the vault), and attached to `entryId` or to the
 * day's phone entry, created when there is none. A vault user's recording is sealed as it is
 * stored, and heard once from the bytes still in memory after this answers (the server cannot hear
 * it afterwards); the transcript joins the entry's words, sealed. Idempotent on `sourceKey`.
 */
export async function addRecording(ctx: AppContext, userId: string, input: AddRecordingInput): Promise<AddedRecording> {
  if (input.sourceKey) {
    const existing = await findRecordingBySource(ctx.db, userId, input.sourceKey);
    if (existing) return { recording: await presentStored(ctx, userId, existing), entryId: existing.entry_id, added: false };
  }
  const probed = await probeAudio(input.audio, ctx.config.voice.maxSeconds);
  const owner = await loadOwner(ctx, userId);
  const entryDate = input.entryDate ?? localDate(input.receivedAt, owner.timezone);
  if (input.entryId) {
    const entry = await findEntry(ctx.db, userId, input.entryId);
    if (!entry) throw notFound(messages.entries.entryNotFound);
    await sealEntryBeforeAdding(ctx, userId, entry);
  } else {
    await sealDayEntryFirst(ctx, userId, entryDate);
  }
  let transcript = input.transcript === undefined ? null : input.transcript;
  if (transcript !== null) transcript = normalizeEntryText(transcript);
  const result = await writingPhotoFiles(ctx, (written) =>
    changeJournal(ctx, userId, async (trx, _revision, words) => {
      if (input.sourceKey) {
        const existing = await findRecordingBySource(trx, userId, input.sourceKey);
        if (existing) return { entryId: existing.entry_id, row: existing, added: false };
      }
      const now = ctx.clock.now();
      const words_ = input.transcriptInText ? '' : (transcript ?? '');
      let entryId: string;
      let changedEntryIds: string[] = [];
      // The recording is kept as its entry's words are: under the owner's key, or sealed to the vault.
      let codec: EntryCodec;
      if (input.entryId) {
        const entry = await findEntry(trx, userId, input.entryId);
        if (!entry) throw notFound(messages.entries.entryNotFound);
        entryId = entry.id;
        codec = words.forEntry(entry);
        if (words_) await appendWords(ctx, trx, codec, entry, words_, input.receivedAt, input.keepEntryTime);
      } else {
        const place = await appendToSmsDay(ctx, trx, words, { owner, entryDate, receivedAt: input.receivedAt, text: words_ });
        entryId = place.entryId;
        changedEntryIds = place.createdEntryIds;
        codec = place.codec;
      }
      // A sealed note still to be heard is held by this instance (its claim) for its one try in memory.
      const status = transcript !== null ? 'done' : transcriptionConfigured(ctx) ? 'pending' : 'failed';
      const heldHere = status === 'pending' && codec.sealed;
      const key = newRecordingKey(userId, entryId, now, probed.mimeType);
      await ctx.storage.put(key, await codec.audio(input.audio), STORED_CONTENT_TYPE);
      written.push(key);
      const row: JournalRecordingRow = {
        id: newId(),
        user_id: userId,
        entry_id: entryId,
        file_path: key,
        mime_type: probed.mimeType,
        duration_seconds: probed.durationSeconds,
        file_size: input.audio.length,
        origin: input.origin,
        sealed: codec.sealed ? 1 : 0,
        source_key: input.sourceKey ?? null,
        transcript: await codec.transcript(transcript),
        transcript_status: status,
        transcribe_attempts: 0,
        transcribe_next_at: status === 'pending' ? now.toISOString() : null,
        transcribe_claimed_at: heldHere ? now.toISOString() : null,
        transcribe_error: null,
        position: await nextRecordingPosition(trx, userId, entryId),
        received_at: input.receivedAt.toISOString(),
        created_at: now.toISOString(),
      };
      await insertRecording(trx, row);
      if (!input.keepEntryTime) await touchEntry(trx, userId, entryId, now.toISOString());
      return { entryId, changedEntryIds, row, added: true };
    }),
  );
  let row = result.row;
  if (result.added && row.transcript_status === 'pending') {
    if (!Number(row.sealed)) ctx.jobs.wake(TRANSCRIPTIONS);
    else if (!hearInMemory(ctx, input.audio.length, () => hearSealedNote(ctx, row, input.audio))) {
      await markNotTranscribed(ctx, row.id, userId, 'too many voice notes waiting to be heard');
      row = { ...row, transcript_status: 'failed', transcribe_claimed_at: null };
    }
  }
  return { recording: await presentStored(ctx, userId, row), entryId: result.entryId, added: result.added };
}

/**
 * The one moment the server hears a vault user's audio: after it is sealed and stored, before the
 * bytes in memory are dropped. The transcript is sealed into the note and its entry (recordTranscript);
 * a failed try keeps the note "not transcribed" (the server cannot hear it again).
 */
async function hearSealedNote(ctx: AppContext, row: JournalRecordingRow, audio: Buffer): Promise<void> {
  // The claim is this instance's from the start; renewed as the try begins, so the transcription job
  // does not settle a note that waited its turn here.
  await ctx.db
    .updateTable('journal_recordings')
    .set({ transcribe_claimed_at: ctx.clock.now().toISOString() })
    .where('user_id', '=', row.user_id)
    .where('id', '=', row.id)
    .where('transcript_status', '=', 'pending')
    .execute();
  const transcript = await transcribeOnce(ctx, audio);
  if (transcript === null) await markNotTranscribed(ctx, row.id, row.user_id, 'one try in memory failed');
  else await recordTranscript(ctx, row.id, row.user_id, transcript);
}

/**
 * Appends words (a transcript) to an entry as a paragraph, the way an inbound text is appended, in
 * the entry's codec: readable under the owner's key, or a segment sealed to the vault. Where the
 * codec finds no room (a readable entry past its length limit) the words stay only on the
 * recording. `keepTime`: the entry's last change stays as it was (an import's, whose time the file gives).
 */
async function appendWords(ctx: AppContext, trx: Db, codec: EntryCodec, entry: JournalEntryRow, text: string, at: Date, keepTime = false): Promise<void> {
  const updatedAt = keepTime ? entry.updated_at : ctx.clock.now().toISOString();
  await codec.appendIfRoom(trx, entry, { text, at }, updatedAt);
}

/**
 * A recording's transcript arrived (the transcription job): kept on the recording (encrypted, or
 * sealed when the recording is) and appended to its entry's text, as a text would be. A recording
 * deleted meanwhile, or already transcribed, is left as it is. Answers whether it was recorded.
 */
export async function recordTranscript(ctx: AppContext, recordingId: string, userId: string, transcript: string): Promise<boolean> {
  const text = normalizeEntryText(transcript);
  const done = await changeJournal(ctx, userId, async (trx, _revision, words) => {
    const row = await findRecording(trx, userId, recordingId);
    if (!row || row.transcript_status === 'done') return { entryId: '', recorded: false };
    const entry = await findEntry(trx, userId, row.entry_id);
    // The words are dated by when the note arrived, not when they were heard (a sealed segment keeps its time).
    if (text && entry) await appendWords(ctx, trx, words.forEntry(entry), entry, text, new Date(row.received_at));
    await updateRecording(trx, userId, recordingId, {
      transcript: await words.forRecording(row).transcript(text),
      transcript_status: 'done',
      transcribe_next_at: null,
      transcribe_claimed_at: null,
      transcribe_error: null,
    });
    return { entryId: row.entry_id, recorded: true };
  });
  return done.recorded;
}

/** A recording that could not be transcribed (the job gave up): shown "Not transcribed", kept with its audio. */
export async function markNotTranscribed(ctx: AppContext, recordingId: string, userId: string, reason: string | null = null): Promise<void> {
  await changeJournal(ctx, userId, async (trx) => {
    const row = await findRecording(trx, userId, recordingId);
    if (!row || row.transcript_status === 'done') return { entryId: '' };
    await updateRecording(trx, userId, recordingId, { transcript_status: 'failed', transcribe_next_at: null, transcribe_claimed_at: null, transcribe_error: reason });
    return { entryId: row.entry_id };
  });
}

/**
 * "Transcribe again" (POST /api/entries/:id/recordings/:recordingId/transcribe): a recording not
 * transcribed goes back to the transcription job. Refused (409) for one transcribed or pending, for
 * a vault user's (the server keeps only audio it cannot hear), and without transcription configured.
 */
export async function requestTranscription(ctx: AppContext, userId: string, entryId: string, recordingId: string): Promise<void> {
  const row = await findRecording(ctx.db, userId, recordingId);
  if (!row || row.entry_id !== entryId) throw notFound(voiceMessages.errors.recordingNotFound);
  if (Number(row.sealed)) throw conflict(voiceMessages.errors.sealedAudio);
  if (!transcriptionConfigured(ctx)) throw conflict(voiceMessages.errors.noTranscription);
  if (row.transcript_status !== 'failed') throw conflict(voiceMessages.errors.notFailed);
  await changeJournal(ctx, userId, async (trx) => {
    const now = await findRecording(trx, userId, recordingId);
    if (!now || now.entry_id !== entryId) throw notFound(voiceMessages.errors.recordingNotFound);
    if (now.transcript_status !== 'failed') throw conflict(voiceMessages.errors.notFailed);
    await updateRecording(trx, userId, recordingId, {
      transcript_status: 'pending',
      transcribe_attempts: 0,
      transcribe_next_at: ctx.clock.now().toISOString(),
      transcribe_claimed_at: null,
      transcribe_error: null,
    });
    return { entryId };
  });
  ctx.jobs.wake(TRANSCRIPTIONS);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The recording's audio, opened (for the transcription job). A sealed recording's cannot be: the
 * server holds only the vault's sealed box. Throws when the file is gone.
 */
export async function readRecordingAudio(ctx: AppContext, recording: Pick<JournalRecordingRow, 'user_id' | 'file_path' | 'sealed'>): Promise<Buffer> {
  if (Number(recording.sealed)) throw conflict(voiceMessages.errors.sealedAudio);
  const stored = await ctx.storage.get(recording.file_path);
  if (!stored) throw notFound(voiceMessages.errors.recordingNotFound);
  const raw = await readAll(stored.stream);
  if (isVaultFile(raw)) throw conflict(voiceMessages.errors.sealedAudio);
  return isEncryptedPhoto(raw) ? decryptPhotoBytes(ctx, recording.user_id, await ownerSalt(ctx, recording.user_id), raw) : raw;
}

/** DELETE /api/entries/:id/recordings/:recordingId: the file goes first, then the record. */
export async function deleteRecording(ctx: AppContext, userId: string, entryId: string, recordingId: string): Promise<void> {
  const row = await findRecording(ctx.db, userId, recordingId);
  if (!row || row.entry_id !== entryId) throw notFound(voiceMessages.errors.recordingNotFound);
  await ctx.storage.delete(row.file_path);
  await changeJournal(ctx, userId, async (trx) => {
    await deleteRecordingRow(trx, userId, recordingId);
    await touchEntry(trx, userId, entryId, ctx.clock.now().toISOString());
    return { entryId };
  });
}

/** Removes the files of recordings (an entry or an account being deleted). */
export async function removeRecordingFiles(ctx: AppContext, rows: readonly Pick<JournalRecordingRow, 'file_path'>[]): Promise<void> {
  await Promise.all(rows.map((row) => ctx.storage.delete(row.file_path)));
}

/** Removes every recording file of a user (before their account is deleted); returns the keys removed. */
export async function removeAllRecordingFiles(ctx: AppContext, userId: string): Promise<string[]> {
  const rows = await listRecordings(ctx.db, userId);
  await removeRecordingFiles(ctx, rows);
  return rows.map((row) => row.file_path);
}
