import type { EntryRecording } from '../../../shared/journal';
import { SEALED_PHOTO_MARK } from '../journal/photo-src';
import { subscribeToVaultKeys, vaultKeys } from '../vault/key-store';
import { VaultLockedError } from '../vault/journal/locked';
import { openFile, openText, type VaultKeys } from '../vault/vault-crypto';

// A Vault's recordings in the browser (part of the Vault journal's code): the transcript opened with
// the entry, the audio opened when it is played, kept as a blob: address until the vault locks.

/** Opened audio by its storage path (links change every few minutes; the audio does not). */
const openedUrls = new Map<string, Promise<string>>();
const pathOf = (url: string) => url.split('?')[0]!;

subscribeToVaultKeys(() => {
  if (vaultKeys()) return;
  for (const opened of openedUrls.values()) void opened.then((url) => URL.revokeObjectURL(url), () => undefined);
  openedUrls.clear();
});

/** A blob: address of the audio behind a sealed link (marked as a sealed photo's is), opened once per unlock. */
export function openedRecordingUrl(markedUrl: string, mimeType: string): Promise<string> {
  const keys = vaultKeys();
  if (!keys) return Promise.reject(new VaultLockedError());
  const url = markedUrl.endsWith(SEALED_PHOTO_MARK) ? markedUrl.slice(0, -SEALED_PHOTO_MARK.length) : markedUrl;
  let opened = openedUrls.get(pathOf(url));
  if (!opened) {
    opened = (async () => {
      // Signed links: no session needed.
      const response = await fetch(url);
      if (!response.ok) throw new Error(`A sealed recording could not be fetched (${response.status})`);
      const bytes = await openFile(keys, new Uint8Array(await response.arrayBuffer()));
      return URL.createObjectURL(new Blob([new Uint8Array(bytes)], { type: mimeType }));
    })();
    opened.catch(() => openedUrls.delete(pathOf(url)));
    openedUrls.set(pathOf(url), opened);
  }
  return opened;
}

/** The opened bytes of the audio behind a sealed link (an export made here). */
export async function openedRecordingBytes(markedUrl: string): Promise<Uint8Array> {
  const keys = vaultKeys();
  if (!keys) throw new VaultLockedError();
  const url = markedUrl.endsWith(SEALED_PHOTO_MARK) ? markedUrl.slice(0, -SEALED_PHOTO_MARK.length) : markedUrl;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`A sealed recording could not be fetched (${response.status})`);
  return openFile(keys, new Uint8Array(await response.arrayBuffer()));
}

/** The transcript a sealed box holds; a box that does not open reads as no transcript. */
async function openTranscript(keys: VaultKeys, sealed: string): Promise<string | null> {
  try {
    const opened = JSON.parse(await openText(keys, sealed)) as { transcript?: unknown };
    return typeof opened.transcript === 'string' ? opened.transcript : null;
  } catch {
    return null;
  }
}

/** A Vault recording as the journal shows it: its transcript opened, its link marked as serving sealed bytes. */
export async function openRecording(keys: VaultKeys, recording: EntryRecording): Promise<EntryRecording> {
  if (recording.sealed === undefined) return recording;
  const { sealed, ...fields } = recording;
  return { ...fields, transcript: await openTranscript(keys, sealed), url: recording.url + SEALED_PHOTO_MARK };
}
