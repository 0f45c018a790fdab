import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JournalEntry, SealedJournalEntry, ServedEntriesPage } from '../../../../shared/journal';
import { sessionStore } from '../../../api/session-store';
import { fakeSession, installFakeApi, reply } from '../../../test/fake-api';
import { lockVault, unlockVault } from '../key-store';
import { loadSodium } from '../sodium';
import { sealFile, sealSegment, sealText } from '../vault-crypto';
import { exportInBrowser } from './export';

// The ZIP of a Vault journal, made in the tab: its voice recordings opened here and written as the
// server's ZIP writes them (Day One's audios/MD5.FORMAT, and an `audios` array on the entry). Only
// the network is faked: the API's answers and the sealed bytes behind the signed links.

afterEach(() => {
  lockVault();
  vi.unstubAllGlobals();
});

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

describe("a Vault journal's ZIP export", () => {
  it('opens each voice recording here and writes it to audios/, named on its entry with its transcript', async () => {
    const pair = (await loadSodium()).crypto_box_keypair();
    const keys = { publicKey: pair.publicKey, privateKey: pair.privateKey };
    const memo = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 1, 2, 3, 250, 251, 252]);
    const call = new Uint8Array([0x52, 0x49, 0x46, 0x46, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const readable = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 42, 42]);
    // What the media route serves: the sealed files as stored, a readable one (a journal being turned off) as it is.
    const media = new Map<string, Uint8Array>([
      ['/media/u/e1/memo.mp3', await sealFile(keys.publicKey, memo)],
      ['/media/u/e1/call.wav', await sealFile(keys.publicKey, call)],
      ['/media/u/e2/note.ogg', readable],
    ]);
    const recording = (id: string, file: string, mime_type: string, duration_seconds: number) => ({ id, url: `/media/u/${file}?exp=1&sig=s`, mime_type, duration_seconds, transcript: null });
    const sealed: SealedJournalEntry = {
      id: '6f1c2a9e-0b7d-4c55-9d6e-1a2b3c4d5e6f',
      title: null,
      content: null,
      tags: [],
      sealed: [await sealSegment(keys.publicKey, { text: 'The tomatoes are in.', at: '2026-05-01T18:00:00.000Z', source: 'sms' })],
      source: 'sms',
      entry_date: '2026-05-01',
      created_at: '2026-05-01T18:00:00.000Z',
      updated_at: '2026-05-01T18:05:00.000Z',
      word_count: 4,
      version: 2,
      photos: [],
      recordings: [
        { ...recording('0a1b2c3d-0000-4000-8000-000000000001', 'e1/memo.mp3', 'audio/mpeg', 3.5), transcript_status: 'done', sealed: await sealText(keys.publicKey, JSON.stringify({ transcript: 'The tomatoes are in.' })) },
        { ...recording('0a1b2c3d-0000-4000-8000-000000000002', 'e1/call.wav', 'audio/wav', 61), transcript_status: 'failed', sealed: await sealText(keys.publicKey, JSON.stringify({ transcript: null })) },
        // Its file is gone: left out, as the server's ZIP leaves it out.
        { ...recording('0a1b2c3d-0000-4000-8000-000000000003', 'e1/gone.mp3', 'audio/mpeg', 2), transcript_status: 'done', sealed: await sealText(keys.publicKey, JSON.stringify({ transcript: 'lost' })) },
      ],
    };
    const open: JournalEntry = {
      id: '7a2b3c4d-1111-4222-8333-444455556666',
      title: 'Walk',
      content: 'Owls calling.',
      tags: [],
      source: 'web',
      entry_date: '2026-05-02',
      created_at: '2026-05-02T21:00:00.000Z',
      updated_at: '2026-05-02T21:00:00.000Z',
      word_count: 2,
      version: 1,
      photos: [],
      recordings: [{ ...recording('0a1b2c3d-0000-4000-8000-000000000004', 'e2/note.ogg', 'audio/ogg', 1), transcript: 'Owls calling.', transcript_status: 'done' }],
    };
    const api = installFakeApi();
    sessionStore.set(fakeSession());
    api.on('GET /api/entries', reply(200, { entries: [open, sealed], nextCursor: null, vault: true } satisfies ServedEntriesPage));
    api.on('GET /api/profile', reply(200, { timezone: 'America/Chicago', is_opted_out: false, phone_number: null, journal_number: null }));
    const apiFetch = api.fetch;
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      const path = input.split('?')[0]!;
      if (!path.startsWith('/media/')) return apiFetch(input, init);
      fetched.push(input);
      const stored = media.get(path);
      return stored ? new Response(new Uint8Array(stored)) : new Response(null, { status: 404 });
    });
    const saved: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: (blob: Blob) => `blob:saved-${saved.push(blob)}`, revokeObjectURL: () => undefined }));
    unlockVault(keys);

    const name = await exportInBrowser({ format: 'zip', from: '', to: '', photos: true });

    expect(name).toMatch(/^journal-export-\d{4}-\d{2}-\d{2}\.zip$/);
    // The signed links as the server gave them (the sealed mark is this tab's own).
    expect(fetched.sort()).toEqual(['/media/u/e1/call.wav?exp=1&sig=s', '/media/u/e1/gone.mp3?exp=1&sig=s', '/media/u/e1/memo.mp3?exp=1&sig=s', '/media/u/e2/note.ogg?exp=1&sig=s']);
    const files = unzipSync(new Uint8Array(await saved[0]!.arrayBuffer()));
    expect(Object.keys(files).filter((n) => n.startsWith('audios/')).sort()).toEqual([`audios/${md5(memo)}.mp3`, `audios/${md5(call)}.wav`, `audios/${md5(readable)}.ogg`].sort());
    expect(files[`audios/${md5(memo)}.mp3`]).toEqual(memo);
    expect(files[`audios/${md5(call)}.wav`]).toEqual(call);
    expect(files[`audios/${md5(readable)}.ogg`]).toEqual(readable);

    const journal = JSON.parse(new TextDecoder().decode(files['Journal.json']));
    const [first, second] = journal.entries;
    expect(first.text).toBe('The tomatoes are in\\.');
    expect(first.audios).toEqual([
      { identifier: '0A1B2C3D000040008000000000000001', md5: md5(memo), format: 'mp3', fileSize: memo.length, duration: 3.5, date: '2026-05-01T18:00:00Z', transcription: 'The tomatoes are in.' },
      // Not transcribed: no transcription.
      { identifier: '0A1B2C3D000040008000000000000002', md5: md5(call), format: 'wav', fileSize: call.length, duration: 61, date: '2026-05-01T18:00:00Z' },
    ]);
    expect(second.audios).toEqual([
      { identifier: '0A1B2C3D000040008000000000000004', md5: md5(readable), format: 'ogg', fileSize: readable.length, duration: 1, date: '2026-05-02T21:00:00Z', transcription: 'Owls calling.' },
    ]);
  });
});
