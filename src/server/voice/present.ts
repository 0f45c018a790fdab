import type { EntryRecording } from '../../shared/journal';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import type { JournalRecordingRow } from '../db/tables';
import { signedMediaUrl } from '../photos/signed-url';
import { listEntryRecordings, listRecordings } from './repo';

/** A recording row as the journal holds it in memory: a readable one's transcript decrypted. */
export type DecryptedRecording = JournalRecordingRow;

/** A recording as the API shows it; a sealed one's transcript only as its sealed box. */
export function presentRecording(ctx: AppContext, row: DecryptedRecording): EntryRecording {
  const shown: EntryRecording = {
    id: row.id,
    url: signedMediaUrl(ctx, row.file_path, 'full'),
    mime_type: row.mime_type,
    duration_seconds: Number(row.duration_seconds),
    transcript: null,
    transcript_status: row.transcript_status,
  };
  if (Number(row.sealed)) return { ...shown, ...(row.transcript !== null && { sealed: row.transcript }) };
  return { ...shown, transcript: row.transcript_status === 'done' ? row.transcript : null };
}

/** Rows with their transcripts decrypted (a sealed one's stays sealed). */
export function decryptRecordingRows(ctx: AppContext, userId: string, salt: string, rows: readonly JournalRecordingRow[]): DecryptedRecording[] {
  return rows.map((row) => (Number(row.sealed) || row.transcript === null ? row : { ...row, transcript: ctx.cipher.decrypt(userId, salt, row.transcript) }));
}

/** Every recording of a journal, transcripts decrypted, by entry (oldest first). */
export async function recordingsByEntry(ctx: AppContext, db: Db, userId: string, salt: string, entryId?: string): Promise<Map<string, DecryptedRecording[]>> {
  const rows = entryId ? await listEntryRecordings(db, userId, entryId) : await listRecordings(db, userId);
  const byEntry = new Map<string, DecryptedRecording[]>();
  for (const row of decryptRecordingRows(ctx, userId, salt, rows)) {
    const list = byEntry.get(row.entry_id);
    if (list) list.push(row);
    else byEntry.set(row.entry_id, [row]);
  }
  return byEntry;
}

