import { beforeAll, describe, expect, it } from 'vitest';
import type { SealedEntry, VaultView } from '../../../shared/vault';
import { fakeSession, installFakeApi, reply } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { entryFromSegments, openWholeJournal } from './migrate';
import { createVault, sealSegment, type NewVault } from './vault-crypto';

let vault: NewVault;
beforeAll(async () => {
  vault = await createVault('otters hold hands while sleeping');
});

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
    const sealedEntry = async (id: string, texts: string[]): Promise<SealedEntry> => ({
      id,
      entry_date: '2026-11-25',
      source: 'sms',
      created_at: '2026-11-25T07:00:00Z',
      updated_at: '2026-11-25T07:00:00Z',
      sealed: await Promise.all(texts.map((text) => sealSegment(vault.keys.publicKey, { text, at: '2026-11-25T07:00:00Z', source: 'sms' }))),
      photos: [],
    });
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
        { id: 'a', segments: 1, content: 'one', title: null, tags: [], photos: [] },
        { id: 'b', segments: 2, content: 'two\n\nthree', title: null, tags: [], photos: [] },
      ],
      [{ id: 'c', segments: 1, content: 'four', title: null, tags: [], photos: [] }],
    ]);
    expect(api.requestsTo('DELETE /api/vault')).toHaveLength(1);
    expect(progress.at(-1)).toBe(3);
  });
});
