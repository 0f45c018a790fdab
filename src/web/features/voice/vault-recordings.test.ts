import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EntryRecording, SealedJournalEntry } from '../../../shared/journal';
import { SEALED_PHOTO_MARK } from '../journal/photo-src';
import { lockVault, unlockVault } from '../vault/key-store';
import { openServedEntry } from '../vault/journal/open-entry';
import { loadSodium } from '../vault/sodium';
import { sealFile, sealSegment, sealText, type VaultKeys } from '../vault/vault-crypto';
import { openedRecordingUrl } from './vault-recordings';

async function freshKeys(): Promise<VaultKeys> {
  const pair = (await loadSodium()).crypto_box_keypair();
  return { publicKey: pair.publicKey, privateKey: pair.privateKey };
}

const sealedRecording = (sealed: string): EntryRecording => ({
  id: 'rec-1',
  url: 'http://localhost/media/rec-1?sig=1',
  mime_type: 'audio/wav',
  duration_seconds: 61,
  transcript: null,
  transcript_status: 'done',
  sealed,
});

afterEach(() => {
  lockVault();
  vi.unstubAllGlobals();
});

describe("a Vault user's voice notes, opened in the browser", () => {
  let keys: VaultKeys;
  beforeAll(async () => {
    keys = await freshKeys();
  });

  it('opens the transcript with the entry and marks the audio link as sealed', async () => {
    const served: SealedJournalEntry = {
      id: 'e1',
      title: null,
      content: null,
      tags: [],
      sealed: [await sealSegment(keys.publicKey, { text: 'Call about the garden', at: '2026-05-01T18:00:00.000Z', source: 'sms' })],
      source: 'sms',
      entry_date: '2026-05-01',
      created_at: '2026-05-01T18:00:00.000Z',
      updated_at: '2026-05-01T18:00:00.000Z',
      word_count: 4,
      version: 3,
      photos: [],
      recordings: [
        sealedRecording(await sealText(keys.publicKey, JSON.stringify({ transcript: 'The tomatoes are in.' }))),
        { ...sealedRecording(await sealText(keys.publicKey, JSON.stringify({ transcript: null }))), id: 'rec-2', transcript_status: 'failed' },
        { ...sealedRecording(await sealText((await freshKeys()).publicKey, JSON.stringify({ transcript: 'not ours' }))), id: 'rec-3' },
      ],
    };
    const entry = await openServedEntry(keys, served);
    expect(entry.content).toBe('Call about the garden');
    expect(entry.recordings).toEqual([
      { id: 'rec-1', url: `http://localhost/media/rec-1?sig=1${SEALED_PHOTO_MARK}`, mime_type: 'audio/wav', duration_seconds: 61, transcript: 'The tomatoes are in.', transcript_status: 'done' },
      expect.objectContaining({ id: 'rec-2', transcript: null, transcript_status: 'failed' }),
      // Sealed to another key: no transcript, and the journal still opens.
      expect.objectContaining({ id: 'rec-3', transcript: null }),
    ]);
  });

  it('plays the audio from its opened bytes, and lets them go when the vault locks', async () => {
    const audio = new Uint8Array([82, 73, 70, 70, 1, 2, 3, 4]);
    const sealed = await sealFile(keys.publicKey, audio);
    const fetch = vi.fn(async () => new Response(new Blob([sealed])));
    vi.stubGlobal('fetch', fetch);
    const blobs: Blob[] = [];
    const revoke = vi.fn();
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: (blob: Blob) => `blob:opened-${blobs.push(blob)}`, revokeObjectURL: revoke }));

    await expect(openedRecordingUrl(`http://localhost/media/rec-1?sig=1${SEALED_PHOTO_MARK}`, 'audio/wav')).rejects.toThrow();
    unlockVault(keys);
    const url = await openedRecordingUrl(`http://localhost/media/rec-1?sig=1${SEALED_PHOTO_MARK}`, 'audio/wav');
    expect(url).toBe('blob:opened-1');
    expect(fetch).toHaveBeenCalledWith('http://localhost/media/rec-1?sig=1');
    expect(blobs[0]!.type).toBe('audio/wav');
    expect(new Uint8Array(await blobs[0]!.arrayBuffer())).toEqual(audio);
    // A fresh link to the same audio is not fetched again.
    expect(await openedRecordingUrl(`http://localhost/media/rec-1?sig=2${SEALED_PHOTO_MARK}`, 'audio/wav')).toBe('blob:opened-1');
    expect(fetch).toHaveBeenCalledTimes(1);

    lockVault();
    await vi.waitFor(() => expect(revoke).toHaveBeenCalledWith('blob:opened-1'));
  });
});
