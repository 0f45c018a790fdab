import type { AppContext } from '../context';
import type { JournalEntryRow } from '../db/tables';
import type { EntrySource } from '../../shared/journal';

/** An entry's text as the owner reads it. */
export interface DecryptedEntry {
  id: string;
  title: string | null;
  content: string;
  tags: string[];
  source: EntrySource;
  entry_date: string;
  word_count: number;
  created_at: string;
  updated_at: string;
  /** The IANA zone its time is shown in; null follows the account's. */
  time_zone: string | null;
  /**
   * A Vault entry's words: base64 sealed segments only its owner's browser opens (docs/vault.md);
   * then content is '', title null and tags empty. Null for an entry the server can read.
   */
  sealed: string[] | null;
  /** Raised by every write to the entry; a save names the one it was based on. */
  version: number;
}

/** Encrypts what an entry says (content, title, tags) with the owner's key. */
export function encryptEntryText(ctx: AppContext, userId: string, salt: string, text: { content: string; title: string | null; tags: string[] }) {
  const encrypt = (plain: string) => ctx.cipher.encrypt(userId, salt, plain);
  return { content: encrypt(text.content), title: text.title === null ? null : encrypt(text.title), tags: encrypt(JSON.stringify(text.tags)) };
}

/** The same for a partial change: only the fields given. */
export function encryptEntryChanges(ctx: AppContext, userId: string, salt: string, text: { content?: string; title?: string | null; tags?: string[] }) {
  const encrypt = (plain: string) => ctx.cipher.encrypt(userId, salt, plain);
  return {
    ...(text.content !== undefined && { content: encrypt(text.content) }),
    ...(text.title !== undefined && { title: text.title === null ? null : encrypt(text.title) }),
    ...(text.tags !== undefined && { tags: encrypt(JSON.stringify(text.tags)) }),
  };
}

function parseTags(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/** A Vault entry's sealed segments, as stored (a JSON list). */
export function sealedSegmentsOf(sealed: string): string[] {
  const value: unknown = JSON.parse(sealed);
  return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
}

/** An entry as its owner reads it: decrypted with their key; a Vault entry's sealed segments as they are. */
export function decryptEntry(ctx: AppContext, salt: string, row: JournalEntryRow): DecryptedEntry {
  const decrypt = (stored: string) => ctx.cipher.decrypt(row.user_id, salt, stored);
  const sealed = row.sealed === null ? null : sealedSegmentsOf(row.sealed);
  return {
    id: row.id,
    // Nothing to decrypt in a Vault entry: its words are in `sealed`, which no key here opens.
    title: sealed || row.title === null ? null : decrypt(row.title),
    content: sealed ? '' : decrypt(row.content),
    tags: sealed ? [] : parseTags(decrypt(row.tags)),
    source: row.source,
    entry_date: row.entry_date,
    word_count: Number(row.word_count),
    created_at: row.created_at,
    updated_at: row.updated_at,
    time_zone: row.time_zone,
    sealed,
    version: Number(row.version),
  };
}
