import type { ImportProgress } from '../../../../shared/import';
import { ImportFileError } from '../../../../shared/import/file-error';
import { SNIFF_BYTES, sniffImport } from '../../../../shared/import/sniff';
import type { ImportedFingerprints, SealedImportEntry, SealedImportResult } from '../../../../shared/vault-import';
import { apiRequest } from '../../../api/client';
import { postForm } from '../../journal/http';
import { fetchProfile } from '../../journal/journal-api';
import { markVaultJournalStale } from '../../journal/vault-mode';
import { vaultKeys } from '../key-store';
import { VaultLockedError } from '../journal/locked';
import { preparePhoto } from '../journal/photos';
import { readImportFile } from './read-file';
import { importIntoVault } from './vault-import';

// What Settings → Import loads (by dynamic import, for a Vault user only) to import a file into
// the unlocked vault: the parsers, fflate and the sealing stay out of everyone else's first load.

const failed = (message: string): ImportProgress => ({ id: 'vault', status: 'failed', total: 0, imported: 0, skipped: 0, photos_imported: 0, photos_skipped: 0, reasons: [], error: message });

/** Reads `file` here, seals its entries and photos to the vault's key, and sends them with its voice recordings. */
export async function runVaultImport(file: Blob, options: { onProgress?(progress: ImportProgress): void; signal?: AbortSignal } = {}): Promise<ImportProgress> {
  const keys = vaultKeys();
  if (!keys) throw new VaultLockedError();
  // The user's zone, as the server reads an import: jrnl's wall-clock times, Day One entries without one.
  const timeZone = (await fetchProfile(options.signal))?.timezone || Intl.DateTimeFormat().resolvedOptions().timeZone;
  let reading;
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    // The server's first look at an upload: a picture, a document or an encrypted journal is named as such.
    sniffImport(bytes.subarray(0, SNIFF_BYTES), bytes.length <= SNIFF_BYTES);
    reading = readImportFile(bytes, { timeZone, now: new Date() });
  } catch (error) {
    if (error instanceof ImportFileError) return failed(error.message);
    throw error;
  }
  try {
    return await importIntoVault(reading, {
      keys,
      preparePhoto,
      importedBefore: () => apiRequest<ImportedFingerprints>('GET', '/api/vault/imported', { signal: options.signal }),
      sendEntries: (entries: SealedImportEntry[]) => apiRequest<SealedImportResult>('POST', '/api/vault/imported', { body: { entries }, signal: options.signal }),
      sendPhotos: (entryId, form) => postForm(`/api/entries/${encodeURIComponent(entryId)}/photos`, form),
      sendRecording: (entryId, form) => postForm(`/api/entries/${encodeURIComponent(entryId)}/recordings`, form),
      onProgress: options.onProgress,
      signal: options.signal,
    });
  } finally {
    // The opened journal reads the new entries at its next look.
    markVaultJournalStale();
  }
}
