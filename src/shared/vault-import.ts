// A Vault user's import (POST /api/vault/imported): the file is read and sealed in the browser, and
// the server keeps the sealed entries it is sent. Shared by the server and the web app; no zod here.

import type { EntrySource } from './journal-rules';

/** Entries per POST /api/vault/imported. */
export const SEALED_IMPORT_BATCH_MAX = 50;
/** One sealed segment of an imported entry, as base64: our own export keeps entries whole, however long. */
export const SEALED_IMPORT_SEGMENT_MAX_CHARS = 1_400_000;

/** One entry of the file, sealed in the browser. */
export interface SealedImportEntry {
  /**
   * The entry's identity in the file, hashed in the browser under a key derived from the vault's
   * private key (base64url, 32 bytes): the same entry imported again has the same key, and the
   * server cannot tell from it what the entry says.
   */
  import_key: string;
  /** Our own export: the id the entry had; one the journal still has is not imported again. */
  original_id?: string;
  entry_date: string;
  created_at: string;
  /** When it was last changed, as the file says; `created_at` when left out. */
  updated_at?: string;
  time_zone: string;
  source: EntrySource;
  word_count: number;
  /** Base64 sealed boxes; each opens to a VaultSegment {text, title?, tags?, at, source}. */
  sealed: string[];
}

/**
 * The answer, entry by entry in the order sent: the new entry, or the one it already is
 * (`imported: false`, with `has_photos`, whether that entry holds any photo, and `recording_keys`,
 * the source keys of the recordings it holds: an import stopped before an entry's photos or
 * recordings were all sent sends what is missing when it is made again).
 */
export interface SealedImportResult {
  entries: Array<{ id: string; imported: true } | { id: string; imported: false; has_photos: boolean; recording_keys: string[] }>;
}

/**
 * GET /api/vault/imported: what came in by import before the Vault was on. Fingerprints are
 * HMAC-SHA256 of an entry's or photo's origin (shared/import/types.ts) under the journal's `key`,
 * base64url; `fingerprints` are those still readable (the journal is being sealed), `sealed` those
 * sealed to the vault's public key (base64 crypto_box_seal of the base64url fingerprint).
 */
export interface ImportedFingerprints {
  /** base64url, 32 bytes. */
  key: string;
  fingerprints: string[];
  sealed: string[];
}
