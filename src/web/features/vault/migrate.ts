import type { OpenedEntryInput, SealedEntry, VaultSegment, VaultView } from '../../../shared/vault';
import { loadSodium } from './sodium';
import { fetchSealedBatch, finishTurningOff, sealNextBatch, sendOpenedEntries, startTurningOff } from './vault-api';
import { openFile, openSegment, openText, type VaultKeys } from './vault-crypto';

/** Text-only entries go together up to about this much text a request (well within what the server takes). */
const TEXT_CHARS_PER_REQUEST = 2_000_000;

export interface Progress {
  done: number;
  total: number;
}

/** Whether the server still holds entries it can read (while turning on, or ones that slipped in). */
export const needsSealing = (view: VaultView) => view.state === 'sealing' || (view.state === 'on' && view.sealed_entries < view.total_entries);

/** Turning on: asks the server to seal a batch at a time until the whole journal is sealed. */
export async function sealWholeJournal(onProgress: (progress: Progress) => void, signal?: AbortSignal): Promise<VaultView> {
  for (;;) {
    signal?.throwIfAborted();
    const view = await sealNextBatch();
    onProgress({ done: view.sealed_entries, total: view.total_entries });
    if (!needsSealing(view)) return view;
  }
}

/** An entry as its segments read: texts one after another, the latest title and tags. */
export function entryFromSegments(segments: readonly VaultSegment[]): Pick<OpenedEntryInput, 'content' | 'title' | 'tags'> {
  return {
    content: segments.map((s) => s.text).join('\n\n'),
    title: segments.findLast((s) => s.title !== undefined)?.title ?? null,
    tags: segments.findLast((s) => s.tags !== undefined)?.tags ?? [],
  };
}

async function openedFile(keys: VaultKeys, url: string): Promise<string> {
  // Signed links: no session needed.
  const response = await fetch(url);
  if (!response.ok) throw new Error(`A sealed file could not be fetched (${response.status})`);
  const sodium = await loadSodium();
  return sodium.to_base64(await openFile(keys, new Uint8Array(await response.arrayBuffer())), sodium.base64_variants.ORIGINAL);
}

/** A recording's sealed transcript box opened: {"transcript": string | null}. */
async function openedTranscript(keys: VaultKeys, sealed: string | null): Promise<string | null> {
  if (sealed === null) return null;
  const { transcript } = JSON.parse(await openText(keys, sealed)) as { transcript?: unknown };
  return typeof transcript === 'string' ? transcript : null;
}

async function openEntry(keys: VaultKeys, entry: SealedEntry): Promise<OpenedEntryInput> {
  const segments = await Promise.all(entry.sealed.map((s) => openSegment(keys, s)));
  const photos = [];
  for (const photo of entry.photos) {
    photos.push({ id: photo.id, file_name: await openText(keys, photo.file_name), full: await openedFile(keys, photo.url), thumb: await openedFile(keys, photo.thumbnail_url) });
  }
  const recordings = [];
  for (const recording of entry.recordings) {
    recordings.push({ id: recording.id, audio: await openedFile(keys, recording.url), transcript: await openedTranscript(keys, recording.transcript) });
  }
  return { id: entry.id, segments: segments.length, ...entryFromSegments(segments), photos, recordings };
}

/**
 * Turning off: opens the sealed journal here a batch at a time and gives it back to the server;
 * once nothing is sealed, the vault goes. An entry with photos or voice recordings travels alone
 * (they are large: the server takes one entry's photos and up to OPENED_AUDIO_MAX_BYTES of audio).
 */
export async function openWholeJournal(keys: VaultKeys, view: VaultView, onProgress: (progress: Progress) => void, signal?: AbortSignal): Promise<void> {
  if (view.state !== 'unsealing') await startTurningOff();
  const total = view.total_entries;
  let sealed = view.sealed_entries;
  onProgress({ done: total - sealed, total });
  const send = async (entries: OpenedEntryInput[]) => {
    if (entries.length > 0) sealed -= (await sendOpenedEntries(entries)).opened.length;
    onProgress({ done: total - sealed, total });
  };
  for (let batch = (await fetchSealedBatch()).entries; batch.length > 0; batch = (await fetchSealedBatch()).entries) {
    let texts: OpenedEntryInput[] = [];
    let textChars = 0;
    for (const entry of batch) {
      signal?.throwIfAborted();
      const opened = await openEntry(keys, entry);
      if (opened.photos.length > 0 || opened.recordings.length > 0) {
        await send([opened]);
        continue;
      }
      texts.push(opened);
      textChars += opened.content.length;
      if (textChars > TEXT_CHARS_PER_REQUEST) {
        await send(texts);
        texts = [];
        textChars = 0;
      }
    }
    await send(texts);
  }
  await finishTurningOff();
}
