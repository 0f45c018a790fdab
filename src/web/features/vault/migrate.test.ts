import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SealedEntry, VaultView } from '../../../shared/vault';
import { fakeSession, installFakeApi, reply } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { entryFromSegments, openWholeJournal } from './migrate';
import { createVault, sealFile, sealSegment, sealText, type NewVault } from './vault-crypto';

let vault: NewVault;
beforeAll(async () => {
  vault = await createVault('otters hold hands while sleeping');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const sealedEntry = async (id: string, texts: string[], recordings: SealedEntry['recordings'] = []): Promise<SealedEntry> => ({
  id,
  entry_date: '2026-11-25',
  source: 'sms',
  created_at: '2026-11-25T07:00:00Z',
  updated_at: '2026-11-25T07:00:00Z',
  sealed: await Promise.all(texts.map((text) => sealSegment(vault.keys.publicKey, { text, at: '2026-11-25T07:00:00Z', source: 'sms' }))),
  photos: [],
  recordings,
});
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('turning the vault off in the browser', () => {
  it('reads an entry as its segments: texts in order, the latest title and tags', () => {
    expect(
      entryFromSegments([
        { text: 'Morning swim.', at: '2026-11-25T07:00:00Z', source: 'sms' },
        { text: 'Rain later.', title: 'Lake', tags: ['swim'], at: '2026-11-25T18:00:00Z', source: 'sms' },
        { text: 'Soup.', at: '2026-11-25T20:00:00Z', source: 'sms' },
      ]),
    ).toEqual({ content: 'Morning swim.\n\nRain later.\n\nSoup.', title: 'Lake', tags: ['swim'] });
  });

  it('opens every sealed entry batch by batch, sends it back opened, then ends the vault', async () => {
    const api = installFakeApi();
    sessionStore.set(fakeSession());
    let batches = [[await sealedEntry('a', ['one']), await sealedEntry('b', ['two', 'three'])], [await sealedEntry('c', ['four'])]];
    api.on('POST /api/vault/unseal', reply(200, {}));
    api.on('GET /api/vault/sealed', () => reply(200, { entries: batches[0] ?? [] }));
    api.on('POST /api/vault/opened', (request) => {
      batches = batches.slice(1);
      return reply(200, { opened: request.body.entries.map((e: { id: string }) => e.id), skipped: [] });
    });
    api.on('DELETE /api/vault', reply(204));
    const view: VaultView = { enabled: true, state: 'on', public_key: vault.publicKey, wrapped_keys: vault.wrappedKeys, sealed_entries: 3, total_entries: 3 };
    const progress: number[] = [];
    await openWholeJournal(vault.keys, view, (p) => progress.push(p.done));

    expect(api.requestsTo('POST /api/vault/unseal')).toHaveLength(1);
    expect(api.requestsTo('POST /api/vault/opened').map((r) => r.body.entries)).toEqual([
      [
        { id: 'a', segments: 1, content: 'one', title: null, tags: [], photos: [], recordings: [] },
        { id: 'b', segments: 2, content: 'two\n\nthree', title: null, tags: [], photos: [], recordings: [] },
      ],
      [{ id: 'c', segments: 1, content: 'four', title: null, tags: [], photos: [], recordings: [] }],
    ]);
    expect(api.requestsTo('DELETE /api/vault')).toHaveLength(1);
    expect(progress.at(-1)).toBe(3);
  });

  it('opens each voice recording (audio and transcript) and sends its entry alone', async () => {
    const api = installFakeApi();
    sessionStore.set(fakeSession());
    // The sealed audio behind the signed links (the media route serves the stored bytes).
    const memo = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 1, 2, 3, 250, 251, 252]);
    const call = new Uint8Array([0x52, 0x49, 0x46, 0x46, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const media = new Map([
      ['/media/u/b/memo.mp3', await sealFile(vault.keys.publicKey, memo)],
      ['/media/u/b/call.wav', await sealFile(vault.keys.publicKey, call)],
    ]);
    const spoken = await sealedEntry('b', ['Spoken on the ferry'], [
      { id: 'r1', mime_type: 'audio/mpeg', url: '/media/u/b/memo.mp3?exp=1&sig=s', transcript: await sealText(vault.keys.publicKey, JSON.stringify({ transcript: 'Spoken on the ferry' })) },
      { id: 'r2', mime_type: 'audio/wav', url: '/media/u/b/call.wav?exp=1&sig=s', transcript: await sealText(vault.keys.publicKey, JSON.stringify({ transcript: null })) },
    ]);
    let batches = [[await sealedEntry('a', ['one']), spoken, await sealedEntry('c', ['two'])]];
    api.on('GET /api/vault/sealed', () => reply(200, { entries: batches[0] ?? [] }));
    api.on('POST /api/vault/opened', (request) => {
      if (request.body.entries.some((e: { id: string }) => e.id === 'c')) batches = [];
      return reply(200, { opened: request.body.entries.map((e: { id: string }) => e.id), skipped: [] });
    });
    api.on('DELETE /api/vault', reply(204));
    const apiFetch = api.fetch;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      const path = input.split('?')[0]!;
      if (!path.startsWith('/media/')) return apiFetch(input, init);
      const stored = media.get(path);
      return stored ? new Response(stored) : new Response(null, { status: 404 });
    });
    const view: VaultView = { enabled: true, state: 'unsealing', public_key: vault.publicKey, wrapped_keys: vault.wrappedKeys, sealed_entries: 3, total_entries: 3 };
    await openWholeJournal(vault.keys, view, () => undefined);

    expect(api.requestsTo('POST /api/vault/opened').map((r) => r.body.entries.map((e: { id: string }) => e.id))).toEqual([['b'], ['a', 'c']]);
    expect(api.requestsTo('POST /api/vault/opened')[0]!.body.entries[0]).toEqual({
      id: 'b',
      segments: 1,
      content: 'Spoken on the ferry',
      title: null,
      tags: [],
      photos: [],
      recordings: [
        { id: 'r1', audio: base64(memo), transcript: 'Spoken on the ferry' },
        { id: 'r2', audio: base64(call), transcript: null },
      ],
    });
    expect(api.requestsTo('DELETE /api/vault')).toHaveLength(1);
  });

  it('stops, sending nothing of the entry, when a recording cannot be fetched', async () => {
    const api = installFakeApi();
    sessionStore.set(fakeSession());
    const entry = await sealedEntry('b', ['Gone'], [{ id: 'r1', mime_type: 'audio/mpeg', url: '/media/u/b/gone.mp3?exp=1&sig=s', transcript: null }]);
    api.on('GET /api/vault/sealed', reply(200, { entries: [entry] }));
    const apiFetch = api.fetch;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => (input.startsWith('/media/') ? new Response(null, { status: 404 }) : apiFetch(input, init)));
    const view: VaultView = { enabled: true, state: 'unsealing', public_key: vault.publicKey, wrapped_keys: vault.wrappedKeys, sealed_entries: 1, total_entries: 1 };

    await expect(openWholeJournal(vault.keys, view, () => undefined)).rejects.toThrow();
    expect(api.requestsTo('POST /api/vault/opened')).toEqual([]);
    expect(api.requestsTo('DELETE /api/vault')).toEqual([]);
  });
});
