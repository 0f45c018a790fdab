import type { JournalEntry, ServedEntry } from '../../../../shared/journal';
import { countWords, normalizeEntryText, normalizeTitle, splitTags } from '../../../../shared/journal-rules';
import type { VaultSegment } from '../../../../shared/vault';
import { apiRequest } from '../../../api/client';
import { changedEntryIn, EntryChangedError } from '../../journal/entry-changed';
import { postForm } from '../../journal/http';
import type { EntryDraft } from '../../journal/journal-api';
import { vaultKeys } from '../key-store';
import { sealSegment, type VaultKeys } from '../vault-crypto';
import { VaultLockedError } from './locked';
import { appendSealedPhotos } from './photos';
import { keepEntry } from './vault-journal';

// Writing a Vault journal: the words become one segment sealed here (docs/vault.md §5), with the
// same clean-up the server gives words it reads; photos are re-encoded and sealed here too.

function requireKeys(): VaultKeys {
  const keys = vaultKeys();
  if (!keys) throw new VaultLockedError();
  return keys;
}

/** A draft as one sealed segment, and its word count (the server cannot count sealed words). */
async function sealDraft(keys: VaultKeys, draft: EntryDraft): Promise<{ sealed: string; word_count: number }> {
  const text = normalizeEntryText(draft.content);
  const title = normalizeTitle(draft.title);
  const tags = splitTags(draft.tags);
  const segment: VaultSegment = { text, ...(title !== null && { title }), ...(tags.length > 0 && { tags }), at: new Date().toISOString(), source: 'web' };
  return { sealed: await sealSegment(keys.publicKey, segment), word_count: countWords(text) };
}

/** POST /api/entries for a Vault journal. */
export async function createVaultEntry(draft: EntryDraft, photos: readonly File[], idempotencyKey: string): Promise<JournalEntry> {
  const keys = requireKeys();
  const body = await sealDraft(keys, draft);
  const headers = { 'Idempotency-Key': idempotencyKey };
  if (photos.length === 0) return keepEntry(await apiRequest<ServedEntry>('POST', '/api/entries', { body, headers }));
  const form = new FormData();
  form.append('sealed', body.sealed);
  form.append('word_count', String(body.word_count));
  await appendSealedPhotos(keys, form, photos);
  return keepEntry(await postForm<ServedEntry>('/api/entries', form, headers));
}

/** PATCH /api/entries/:id for a Vault journal: the entry's segments become this one. */
export async function updateVaultEntry(entryId: string, draft: EntryDraft, baseVersion: number): Promise<JournalEntry> {
  const keys = requireKeys();
  try {
    const body = { ...(await sealDraft(keys, draft)), base_version: baseVersion };
    return keepEntry(await apiRequest<ServedEntry>('PATCH', `/api/entries/${encodeURIComponent(entryId)}`, { body }));
  } catch (error) {
    const current = changedEntryIn(error);
    throw current ? new EntryChangedError(await keepEntry(current)) : error;
  }
}

/** POST /api/entries/:id/photos for a Vault journal. */
export async function addVaultPhotos(entryId: string, photos: readonly File[]): Promise<JournalEntry> {
  const keys = requireKeys();
  const form = new FormData();
  await appendSealedPhotos(keys, form, photos);
  return keepEntry(await postForm<ServedEntry>(`/api/entries/${encodeURIComponent(entryId)}/photos`, form));
}
