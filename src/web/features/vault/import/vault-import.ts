import { ENTRY_REASONS, type ImportProgress, type ImportReason } from '../../../../shared/import';
import { ImportFileError } from '../../../../shared/import/file-error';
import { entryExample, ReasonCounter } from '../../../../shared/import/reasons';
import type { ImportedAudio, ImportedEntry, ImportedPhoto } from '../../../../shared/import/types';
import { countWords, ENTRY_CONTENT_MAX, PHOTO_MAX_BYTES, PHOTOS_PER_ENTRY_MAX, PHOTOS_PER_ENTRY_MAX_BYTES } from '../../../../shared/journal-rules';
import { messages } from '../../../../shared/messages';
import type { VaultSegment } from '../../../../shared/vault';
import { SEALED_IMPORT_BATCH_MAX, type ImportedFingerprints, type SealedImportEntry, type SealedImportResult } from '../../../../shared/vault-import';
import { VOICE_MAX_BYTES, voiceMessages } from '../../../../shared/voice-messages';
import { ApiError } from '../../../api/errors';
import { loadSodium } from '../sodium';
import { openText, sealFile, sealSegment, sealText, type VaultKeys } from '../vault-crypto';
import type { BrowserImportReading } from './read-file';
import { importStopped, nothingWritten, passingFailure, withRetries } from './retries';

// A Vault user's import, made in the browser (docs/vault.md §5): the file is read by the server's
// rules, each entry is written as the server's import would write it (import/write-chunk.ts) but
// sealed here as one segment, sent in batches to POST /api/vault/imported, and its photos re-encoded
// and sealed here as the journal's own photos are, then sent to POST /api/entries/:id/photos. Its
// voice recordings follow one at a time to POST /api/entries/:id/recordings, which seals each to the
// vault as it stores it, as it does a voice note recorded here. A passing failure of a request is
// tried again (retries.ts) before it stops the import.

/** A batch's sealed JSON stays well within what the server takes in one request. */
const BATCH_BYTES = 3 * 1024 * 1024;
/** Photos prepared at a time: each is a decoded picture, re-encoded, in the tab's memory. */
const PHOTOS_PER_BATCH = 10;

export interface VaultImportDeps {
  keys: VaultKeys;
  /** A picture re-encoded as the journal keeps one, with its thumbnail (photos.ts); throws for one it cannot keep. */
  preparePhoto(file: File): Promise<{ full: Blob; thumb: Blob }>;
  sendEntries(entries: SealedImportEntry[]): Promise<SealedImportResult>;
  /** GET /api/vault/imported: what came in by import before the Vault, to leave out here. */
  importedBefore?(): Promise<ImportedFingerprints>;
  sendPhotos(entryId: string, form: FormData): Promise<unknown>;
  /** POST /api/entries/:id/recordings: one recording (`file`) with its transcript, if known, and source key. */
  sendRecording(entryId: string, form: FormData): Promise<unknown>;
  onProgress?(progress: ImportProgress): void;
  signal?: AbortSignal;
}

interface ReadyPhoto {
  photo: ImportedPhoto;
  full: Blob;
  thumb: Blob;
}

interface Planned {
  entry: ImportedEntry;
  body: SealedImportEntry;
  /** Photos the file holds, to prepare once the entry is in; or prepared already (an entry with nothing but photos). */
  photos: ImportedPhoto[];
  ready: ReadyPhoto[] | null;
  /** Recordings the file holds, to send once the entry (and its photos) are in. */
  audios: Array<ImportedAudio & { path: string }>;
}

const PHOTO_TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', heic: 'image/heic', heif: 'image/heif' };
const typeOf = (path: string) => PHOTO_TYPES[path.split('.').pop()?.toLowerCase() ?? ''] ?? '';

/** The file name the server would keep: its last part, no control characters. */
function cleanName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(-200) || 'photo';
}

/**
 * Each entry's import key: its identity in the file, hashed under a key derived from the vault's
 * private key, so the same file imported again (on any device) skips what came in, and the server
 * cannot test a guess of what an entry says against it.
 */
async function importKeys(keys: VaultKeys): Promise<{ of(origin: string): string; wipe(): void }> {
  const sodium = await loadSodium();
  const subkey = sodium.crypto_generichash(32, sodium.from_string('jotline vault import key v1'), keys.privateKey);
  return {
    of: (origin) => sodium.to_base64(sodium.crypto_generichash(32, sodium.from_string(origin), subkey), sodium.base64_variants.URLSAFE_NO_PADDING),
    wipe: () => sodium.memzero(subkey),
  };
}

/**
 * Whether an origin came in by import before the Vault was on: its fingerprint (HMAC-SHA256 under
 * the journal's key, as the server's import made it) among those the server kept, opened here. The
 * server is never told which entries of the file these are, nor anything it could test a guess with.
 */
async function importedBeforeVault(keys: VaultKeys, before: ImportedFingerprints): Promise<(origin: string) => boolean> {
  const sodium = await loadSodium();
  const known = new Set(before.fingerprints);
  for (const sealed of before.sealed) known.add(await openText(keys, sealed));
  if (known.size === 0) return () => false;
  const key = sodium.from_base64(before.key, sodium.base64_variants.URLSAFE_NO_PADDING);
  return (origin) => known.has(sodium.to_base64(sodium.crypto_auth_hmacsha256(sodium.from_string(origin), key), sodium.base64_variants.URLSAFE_NO_PADDING));
}

type AudioReason = Extract<ImportReason, `audio_${string}`>;

/** How the summary counts a recording the server refused (as its own import does); null for a failure that is not the file's. */
function refusal(error: unknown): AudioReason | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 413) return 'audio_over_limit';
  if (error.status !== 400) return null;
  // Not audio, or longer than a voice note may be.
  return error.message === voiceMessages.errors.notAudio ? 'audio_unreadable' : 'audio_over_limit';
}

const failureMessage = (error: unknown) => (error instanceof ImportFileError || error instanceof ApiError ? error.message : messages.importer.failed);

/**
 * Imports a file read in the browser into the user's Vault journal. Answers how it went, in the
 * shape of the server's import status (its counts and reasons), and reports it as it goes.
 */
export async function importIntoVault(reading: BrowserImportReading, deps: VaultImportDeps): Promise<ImportProgress> {
  const tally = new ReasonCounter();
  const progress: ImportProgress = { id: 'vault', status: 'running', total: reading.entries.length, imported: 0, skipped: 0, photos_imported: 0, photos_skipped: 0, reasons: [], error: null };
  const report = () => deps.onProgress?.({ ...progress, reasons: tally.list() });
  const leave = (reason: ImportReason, example: string) => {
    tally.add(reason, example);
    if (ENTRY_REASONS.has(reason)) progress.skipped += 1;
    else if (reason.startsWith('photo_')) progress.photos_skipped += 1;
  };
  const keyer = await importKeys(deps.keys);
  let cameBefore: (origin: string) => boolean = () => false;

  /** A photo's outcome, as the server's import decides it (import/photos.ts). */
  async function preparePhotos(entry: ImportedEntry, photos: readonly ImportedPhoto[]): Promise<{ ready: ReadyPhoto[]; left: Array<[ImportReason, string]> }> {
    const ready: ReadyPhoto[] = [];
    const left: Array<[ImportReason, string]> = [];
    let bytes = 0;
    for (const photo of photos) {
      const example = `${photo.fileName} (${entry.entryDate})`;
      if (reading.fileSize(photo.path!) > PHOTO_MAX_BYTES || ready.length >= PHOTOS_PER_ENTRY_MAX) {
        left.push(['photo_over_limit', example]);
        continue;
      }
      const raw = reading.readFile(photo.path!);
      const prepared = raw && (await deps.preparePhoto(new File([new Uint8Array(raw)], cleanName(photo.fileName), { type: typeOf(photo.path!) })).catch(() => null));
      if (!prepared) left.push(['photo_unsupported', example]);
      else if (bytes + prepared.full.size > PHOTOS_PER_ENTRY_MAX_BYTES) left.push(['photo_over_limit', example]);
      else {
        bytes += prepared.full.size;
        ready.push({ photo, ...prepared });
      }
    }
    return { ready, left };
  }

  async function sendPhotos(entryId: string, ready: readonly ReadyPhoto[]): Promise<void> {
    const form = new FormData();
    for (const { photo, full, thumb } of ready) {
      form.append('photos', new Blob([await sealFile(deps.keys.publicKey, new Uint8Array(await full.arrayBuffer()))]), 'photo');
      form.append('thumbs', new Blob([await sealFile(deps.keys.publicKey, new Uint8Array(await thumb.arrayBuffer()))]), 'thumb');
      form.append('photo_names', await sealText(deps.keys.publicKey, cleanName(photo.fileName)));
      form.append('photo_types', full.type);
    }
    // No key makes a photo upload idempotent: tried again only on an answer that says nothing was written.
    await withRetries(() => deps.sendPhotos(entryId, form), nothingWritten, deps.signal);
    progress.photos_imported += ready.length;
  }

  /** One entry as the server's import would write it, sealed; null when it is left out. */
  async function plan(entry: ImportedEntry): Promise<Planned | null> {
    if (entry.repeated) {
      leave('repeated', entryExample(entry));
      return null;
    }
    for (const item of entry.leftOut) leave(item.reason, `${item.example} (${entry.entryDate})`);
    for (const photo of entry.photos.filter((p) => !p.path)) leave('photo_not_in_file', `${photo.fileName} (${entry.entryDate})`);
    for (const audio of entry.audios.filter((a) => !a.path)) leave('audio_not_in_file', `${audio.fileName} (${entry.entryDate})`);
    // Imported before the Vault was on: not sent at all (the server would not know it).
    if (cameBefore(entry.origin)) {
      leave('already_imported', entryExample(entry));
      return null;
    }
    const photos = entry.photos.filter((p) => p.path);
    let { title, content } = entry;
    let ready: ReadyPhoto[] | null = null;
    if (content === '') {
      // Whether an entry without words comes in at all depends on its photos (prepared now) and recordings.
      if (photos.length > 0) {
        const outcome = await preparePhotos(entry, photos);
        for (const [reason, example] of outcome.left) leave(reason, example);
        ready = outcome.ready;
      }
      // An entry with a recording the file holds comes in for it, as on the server.
      if (!ready?.length && !entry.audios.some((a) => a.path)) {
        // A title alone is the entry's text; an entry with nothing at all is left out.
        if (!title) {
          leave('empty', entryExample(entry));
          return null;
        }
        [title, content] = [null, title];
      }
    }
    const segment: VaultSegment = { text: content, ...(title !== null && { title }), ...(entry.tags.length > 0 && { tags: entry.tags }), at: entry.createdAt, source: entry.source };
    const body: SealedImportEntry = {
      import_key: keyer.of(entry.origin),
      ...(entry.originalId !== undefined && { original_id: entry.originalId }),
      entry_date: entry.entryDate,
      created_at: entry.createdAt,
      updated_at: entry.updatedAt,
      time_zone: entry.timeZone,
      source: entry.source,
      word_count: countWords(content),
      sealed: [await sealSegment(deps.keys.publicKey, segment)],
    };
    const audios = entry.audios.flatMap((a) => (a.path ? [{ ...a, path: a.path }] : []));
    return { entry, body, photos, ready, audios };
  }

  /**
   * Sends an entry's recordings, one at a time (each is read from the file only then), to its entry.
   * The server decodes each as it does a voice note, keeps the transcript the file gives instead of
   * transcribing it, and adds a recording once by its source key: the recording's identity in the
   * file, hashed like the entry's import key, so one sent before answers the recording already there
   * and is not added twice. Those the entry is known to hold (`held`: an entry found already
   * imported) are not read or sent at all. Refusals are counted as the server's import counts them;
   * a passing failure is tried again, and any other failure stops the import.
   */
  async function sendRecordings(entryId: string, entry: ImportedEntry, audios: Planned['audios'], held: ReadonlySet<string> = new Set()): Promise<void> {
    for (const audio of audios) {
      if (deps.signal?.aborted) throw importStopped();
      const sourceKey = `import:${keyer.of(audio.sourceKey)}`;
      if (held.has(sourceKey)) continue;
      const example = `${audio.fileName} (${entry.entryDate})`;
      // Words longer than an entry's come only from a recording longer than a voice note may be.
      if (reading.fileSize(audio.path) > VOICE_MAX_BYTES || (audio.transcript?.length ?? 0) > ENTRY_CONTENT_MAX) {
        leave('audio_over_limit', example);
        continue;
      }
      const raw = reading.readFile(audio.path);
      if (!raw) {
        leave('audio_unreadable', example);
        continue;
      }
      const form = new FormData();
      // The fields before the file: the server reads them first.
      if (audio.transcript !== null) {
        form.append('transcript', audio.transcript);
        form.append('transcript_in_text', String(audio.transcriptInText));
      }
      form.append('source_key', sourceKey);
      form.append('file', new Blob([new Uint8Array(raw)]), 'recording');
      try {
        await withRetries(() => deps.sendRecording(entryId, form), passingFailure, deps.signal);
      } catch (error) {
        // The entry was deleted meanwhile (on another device): nothing to add it to, as on the server.
        if (error instanceof ApiError && error.status === 404) return;
        const reason = refusal(error);
        if (!reason) throw error;
        leave(reason, example);
      }
    }
  }

  async function flush(batch: Planned[]): Promise<void> {
    if (batch.length === 0) return;
    const bodies = batch.map((p) => p.body);
    const { entries } = await withRetries(() => deps.sendEntries(bodies), passingFailure, deps.signal);
    for (const [index, planned] of batch.entries()) {
      const result = entries[index];
      if (!result) {
        leave('already_imported', entryExample(planned.entry));
        continue;
      }
      if (result.imported) progress.imported += 1;
      else {
        leave('already_imported', entryExample(planned.entry));
        // An entry of our own export still in the journal it came from keeps its own photos and
        // recordings, under other keys.
        if (result.id === planned.entry.originalId) continue;
      }
      // An entry found already imported is one an import stopped with before its photos or
      // recordings were all sent: its photos go when it has none (they go in one request, so it has
      // all or none; a photo has no key to know it by, so one with photos gets none twice), and the
      // recordings it does not hold yet by their source keys.
      if (result.imported || !result.has_photos) {
        let ready = planned.ready;
        if (!ready && planned.photos.length > 0) {
          const outcome = await preparePhotos(planned.entry, planned.photos);
          for (const [reason, example] of outcome.left) leave(reason, example);
          ready = outcome.ready;
        }
        if (ready?.length) await sendPhotos(result.id, ready);
      }
      if (planned.audios.length > 0) await sendRecordings(result.id, planned.entry, planned.audios, new Set(result.imported ? [] : result.recording_keys));
    }
  }

  try {
    if (deps.importedBefore) cameBefore = await importedBeforeVault(deps.keys, await deps.importedBefore());
    report();
    let batch: Planned[] = [];
    let bytes = 0;
    let photos = 0;
    for (const entry of reading.entries) {
      if (deps.signal?.aborted) throw importStopped();
      const planned = await plan(entry);
      if (!planned) continue;
      const size = planned.body.sealed.reduce((sum, s) => sum + s.length, 400);
      if (batch.length >= SEALED_IMPORT_BATCH_MAX || (batch.length > 0 && (bytes + size > BATCH_BYTES || photos + planned.photos.length > PHOTOS_PER_BATCH))) {
        await flush(batch);
        report();
        [batch, bytes, photos] = [[], 0, 0];
      }
      batch.push(planned);
      bytes += size;
      photos += planned.photos.length;
    }
    await flush(batch);
    progress.status = 'done';
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    progress.status = 'failed';
    progress.error = failureMessage(error);
  } finally {
    keyer.wipe();
  }
  const final = { ...progress, reasons: tally.list() };
  deps.onProgress?.(final);
  return final;
}
