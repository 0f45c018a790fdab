import { extname } from 'node:path';
import { countWords } from '../../shared/journal';
import { OPENED_AUDIO_MAX_BYTES, type SealedEntry } from '../../shared/vault';
import { vaultMessages } from '../../shared/vault-messages';
import { STORED_CONTENT_TYPE, encryptFileName, encryptPhotoBytes } from '../at-rest/photo-files';
import type { AppContext } from '../context';
import type { JournalRecordingRow } from '../db/tables';
import { AppError, conflict, invalidInput, notFound } from '../errors';
import { TRANSCRIPTIONS } from '../jobs/wakeups';
import { changeJournal } from '../journal/changes';
import { encryptEntryText } from '../journal/entry-cipher';
import { ownerSalt } from '../journal/owner';
import { presentPhoto } from '../journal/present';
import { findEntry, listEntryPhotos } from '../journal/repo';
import { cleanFileName, detectImageFormat } from '../photos/images';
import { newPhotoKeys } from '../photos/keys';
import * as repo from './repo';
import type { OpenedEntriesInput } from './schemas';
import { deleteStaleFiles } from '../photos/service';
import { photosOfEntries, recordStaleFiles, updatePhotoFiles } from '../photos/repo';
import { signedMediaUrl } from '../photos/signed-url';
import { probeAudio } from '../voice/audio';
import { openRecordingRow, recordingsOfEntries } from '../voice/repo';

// Turning the vault off: only the browser holds the private key, so it opens each sealed entry and
// sends it back; the server keeps it under its own key again (as before the vault).

const errors = vaultMessages.errors;

export async function requireTurningOff(ctx: AppContext, userId: string) {
  const vault = await repo.findVault(ctx.db, userId);
  if (!vault) throw notFound(errors.off);
  if (vault.state !== 'unsealing') throw conflict(errors.notTurningOff);
  return vault;
}

/** Whether a recording's audio and transcript are sealed to the vault (what the browser opens). */
const isSealedRecording = (recording: JournalRecordingRow) => Number(recording.sealed) === 1;

/** GET /api/vault/sealed: the next sealed entries for the browser to open, with links to their sealed photos and recordings. */
export async function sealedBatch(ctx: AppContext, userId: string, limit: number): Promise<{ entries: SealedEntry[] }> {
  await requireTurningOff(ctx, userId);
  const rows = await repo.entriesToConvert(ctx.db, userId, true, limit);
  const photos = await photosOfEntries(ctx.db, userId, rows.map((r) => r.id));
  const recordings = (await recordingsOfEntries(ctx.db, userId, rows.map((r) => r.id))).filter(isSealedRecording);
  return {
    entries: rows.map((row) => ({
      id: row.id,
      entry_date: row.entry_date,
      source: row.source,
      created_at: row.created_at,
      updated_at: row.updated_at,
      sealed: JSON.parse(row.sealed!) as string[],
      photos: photos
        .filter((p) => p.entry_id === row.id)
        .map((p) => {
          const { url, thumbnail_url } = presentPhoto(ctx, p);
          return { id: p.id, file_name: p.file_name, mime_type: p.mime_type, url, thumbnail_url };
        }),
      recordings: recordings
        .filter((r) => r.entry_id === row.id)
        .map((r) => ({ id: r.id, mime_type: r.mime_type, url: signedMediaUrl(ctx, r.file_path, 'full'), transcript: r.transcript })),
    })),
  };
}

type OpenedEntry = OpenedEntriesInput['entries'][number];

/** The opened photos, decoded and checked to be pictures, then stored under the server's key in new files. */
async function storeOpenedPhotos(ctx: AppContext, userId: string, salt: string, entry: OpenedEntry, written: string[]) {
  const stored = [];
  for (const photo of entry.photos) {
    const full = Buffer.from(photo.full, 'base64');
    const thumb = Buffer.from(photo.thumb, 'base64');
    const format = await detectImageFormat(full);
    if (!format || !(await detectImageFormat(thumb))) throw invalidInput(errors.photoInvalid);
    const ext = format === 'jpeg' ? 'jpg' : format;
    const keys = newPhotoKeys(userId, entry.id, ctx.clock.now(), ext);
    await ctx.storage.put(keys.file, encryptPhotoBytes(ctx, userId, salt, full), STORED_CONTENT_TYPE);
    written.push(keys.file);
    await ctx.storage.put(keys.thumb, encryptPhotoBytes(ctx, userId, salt, thumb), STORED_CONTENT_TYPE);
    written.push(keys.thumb);
    stored.push({ id: photo.id, fileName: cleanFileName(photo.file_name, ext), file: keys.file, thumb: keys.thumb, size: full.length });
  }
  return stored;
}

/** A recording's opened audio, stored under the server's key in a new file (as any other recording is stored). */
interface StoredRecording {
  recording: JournalRecordingRow;
  file: string;
  transcript: string | null;
}

/**
 * The opened recordings, checked to be audio by the probe every recording passes, then stored under
 * the server's key in new files beside the sealed ones (same layout and extension). `before`: the
 * entry's sealed recordings, each sent once.
 */
async function storeDecryptedRecordings(ctx: AppContext, userId: string, salt: string, entry: OpenedEntry, before: readonly JournalRecordingRow[], written: string[]) {
  const stored: StoredRecording[] = [];
  for (const recording of before) {
    const sent = entry.recordings.find((r) => r.id === recording.id)!;
    const audio = Buffer.from(sent.audio, 'base64');
    try {
      // Kept before today's length limit: only whether it is audio is asked.
      await probeAudio(audio, Number.POSITIVE_INFINITY);
    } catch (error) {
      if (error instanceof AppError && error.status === 400) throw invalidInput(errors.recordingInvalid);
      throw error;
    }
    const file = newPhotoKeys(userId, entry.id, ctx.clock.now(), extname(recording.file_path).slice(1) || 'bin').file;
    await ctx.storage.put(file, encryptPhotoBytes(ctx, userId, salt, audio), STORED_CONTENT_TYPE);
    written.push(file);
    stored.push({ recording, file, transcript: sent.transcript });
  }
  return stored;
}

/** The opened audio an entry brings, in bytes (base64 read as its length). */
const openedAudioBytes = (entry: OpenedEntry) => entry.recordings.reduce((sum, r) => sum + Math.floor((r.audio.length * 3) / 4), 0);

/** The same recordings, by id, file and transcript (a recording added, deleted or transcribed meanwhile is a change). */
function sameRecordings(now: readonly JournalRecordingRow[], before: readonly JournalRecordingRow[]): boolean {
  return now.length === before.length && now.every((r) => before.some((b) => b.id === r.id && b.file_path === r.file_path && b.transcript === r.transcript));
}

/**
 * POST /api/vault/opened: keeps what the browser opened under the server's key. An entry that got
 * another segment meanwhile (a text arrived), or whose photos or recordings changed, is skipped and
 * comes back in the next batch. A recording's transcript is kept readable as it was sealed (status
 * done); one sealed without a transcript is "Not transcribed" (failed), and can be transcribed again.
 */
export async function saveOpenedEntries(ctx: AppContext, userId: string, input: OpenedEntriesInput): Promise<{ opened: string[]; skipped: string[] }> {
  await requireTurningOff(ctx, userId);
  if (input.entries.some((entry) => openedAudioBytes(entry) > OPENED_AUDIO_MAX_BYTES)) throw invalidInput(errors.recordingsTooLarge);
  const salt = await ownerSalt(ctx, userId);
  const opened: string[] = [];
  const skipped: string[] = [];
  let transcribeNow = false;
  for (const entry of input.entries) {
    const before = await listEntryPhotos(ctx.db, userId, entry.id);
    if (before.length !== entry.photos.length || before.some((p) => !entry.photos.some((o) => o.id === p.id))) throw invalidInput(errors.photosMismatch);
    // Recordings come and go by themselves (a call on that day): a different set is a change meanwhile.
    const spokenBefore = (await recordingsOfEntries(ctx.db, userId, [entry.id])).filter(isSealedRecording);
    const sentIds = new Set(entry.recordings.map((r) => r.id));
    if (sentIds.size !== entry.recordings.length || spokenBefore.length !== entry.recordings.length || spokenBefore.some((r) => !sentIds.has(r.id))) {
      skipped.push(entry.id);
      continue;
    }
    const written: string[] = [];
    try {
      const photos = await storeOpenedPhotos(ctx, userId, salt, entry, written);
      const spoken = await storeDecryptedRecordings(ctx, userId, salt, entry, spokenBefore, written);
      const done = await changeJournal(ctx, userId, async (trx) => {
        const vault = await repo.findVault(trx, userId);
        const row = await findEntry(trx, userId, entry.id);
        const photosNow = await listEntryPhotos(trx, userId, entry.id);
        const spokenNow = (await recordingsOfEntries(trx, userId, [entry.id])).filter(isSealedRecording);
        const unchanged =
          vault?.state === 'unsealing' &&
          row?.sealed != null &&
          (JSON.parse(row.sealed) as string[]).length === entry.segments &&
          photosNow.length === before.length &&
          photosNow.every((p) => before.some((b) => b.id === p.id && b.file_path === p.file_path)) &&
          sameRecordings(spokenNow, spokenBefore);
        if (!unchanged) return { entryId: '', done: false, pending: false };
        const text = encryptEntryText(ctx, userId, salt, { content: entry.content, title: entry.title, tags: entry.tags });
        await repo.unsealEntryRow(trx, userId, entry.id, { ...text, word_count: countWords(entry.content) });
        for (const photo of photos) {
          await updatePhotoFiles(trx, userId, photo.id, { file_path: photo.file, thumb_path: photo.thumb, file_name: encryptFileName(ctx, userId, salt, photo.fileName) });
        }
        let pending = false;
        for (const { recording, file, transcript } of spoken) {
          // Its words are in the entry already (a sealed segment, opened above with the rest).
          if (transcript !== null) {
            const fields = { transcript_status: 'done' as const, transcribe_next_at: null, transcribe_claimed_at: null, transcribe_error: null };
            await openRecordingRow(trx, userId, recording.id, { file_path: file, transcript: ctx.cipher.encrypt(userId, salt, transcript), ...fields });
          } else if (recording.transcript_status === 'pending') {
            // Still to be heard, as it was: the transcription job can read it now.
            pending = true;
            const { transcript_status, transcribe_next_at, transcribe_claimed_at, transcribe_error } = recording;
            await openRecordingRow(trx, userId, recording.id, { file_path: file, transcript: null, transcript_status, transcribe_next_at, transcribe_claimed_at, transcribe_error });
          } else {
            const fields = { transcript_status: 'failed' as const, transcribe_next_at: null, transcribe_claimed_at: null, transcribe_error: recording.transcribe_error };
            await openRecordingRow(trx, userId, recording.id, { file_path: file, transcript: null, ...fields });
          }
        }
        await recordStaleFiles(trx, userId, [...photosNow.flatMap((p) => [p.file_path, p.thumb_path]), ...spokenNow.map((r) => r.file_path)], ctx.clock.now().toISOString());
        return { entryId: entry.id, done: true, pending };
      });
      if (done.pending) transcribeNow = true;
      if (done.done) opened.push(entry.id);
      else {
        skipped.push(entry.id);
        await Promise.all(written.map((key) => ctx.storage.delete(key).catch(() => undefined)));
      }
    } catch (error) {
      await Promise.all(written.map((key) => ctx.storage.delete(key).catch(() => undefined)));
      throw error;
    }
  }
  await deleteStaleFiles(ctx, userId);
  if (transcribeNow) ctx.jobs.wake(TRANSCRIPTIONS);
  return { opened, skipped };
}
