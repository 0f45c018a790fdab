import type { EntryPhoto, JournalEntry, ServedEntry } from '../../../../shared/journal';
import type { VaultSegment } from '../../../../shared/vault';
import { vaultMessages } from '../../../../shared/vault-messages';
import { SEALED_PHOTO_MARK } from '../../journal/photo-src';
import { openRecording } from '../../voice/vault-recordings';
import { entryFromSegments } from '../migrate';
import { openSegment, openText, type VaultKeys } from '../vault-crypto';

// A Vault entry as the server sends it (segments and photo names sealed), opened with the keys in
// this tab. Opened segments are kept by their sealed text, so a journal read again opens only what
// is new; all of it is forgotten when the vault locks.

const opened = new Map<string, Promise<VaultSegment>>();

/** A segment that does not open (damaged, or sealed to another key) reads as a note, not as a broken journal. */
const unopenable = (at: string): VaultSegment => ({ text: vaultMessages.journal.unopenable, at, source: 'web' });

function openOnce(keys: VaultKeys, sealed: string, at: string): Promise<VaultSegment> {
  let segment = opened.get(sealed);
  if (!segment) {
    segment = openSegment(keys, sealed).catch(() => unopenable(at));
    opened.set(sealed, segment);
  }
  return segment;
}

export function forgetOpenedSegments(): void {
  opened.clear();
}

async function openPhoto(keys: VaultKeys, photo: EntryPhoto): Promise<EntryPhoto> {
  return {
    ...photo,
    file_name: await openText(keys, photo.file_name).catch(() => 'photo'),
    // Their links serve sealed bytes: PhotoImg opens them here before showing them.
    url: photo.url + SEALED_PHOTO_MARK,
    thumbnail_url: photo.thumbnail_url + SEALED_PHOTO_MARK,
  };
}

/** An entry as the journal shows it; one the server can still read (while sealing, or turning off) is as sent. */
export async function openServedEntry(keys: VaultKeys, served: ServedEntry): Promise<JournalEntry> {
  // A Vault user's recordings are sealed even while the entry's words are not yet.
  const recordings = served.recordings && (await Promise.all(served.recordings.map((r) => openRecording(keys, r))));
  if (served.content !== null) return recordings ? { ...served, recordings } : served;
  const { sealed, ...fields } = served;
  const [segments, photos] = await Promise.all([Promise.all(sealed.map((s) => openOnce(keys, s, served.created_at))), Promise.all(served.photos.map((p) => openPhoto(keys, p)))]);
  return { ...fields, ...entryFromSegments(segments), photos, ...(recordings && { recordings }) };
}
