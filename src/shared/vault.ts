// The Vault's API shapes and limits (docs/vault.md), shared by the server and the web app. No zod
// here: the web app imports this file.

/** off: no vault. sealing: on, the existing journal being sealed. on: every entry sealed. unsealing: being turned off. */
export const VAULT_STATES = ['off', 'sealing', 'on', 'unsealing'] as const;
type VaultState = (typeof VAULT_STATES)[number];

/** GET /api/vault, and the answer of every call that changes the vault. */
export interface VaultView {
  enabled: boolean;
  state: VaultState;
  /** Base64 (original variant) of the X25519 public key; null when off. */
  public_key: string | null;
  /** The private key wrapped in the browser (WrappedKeys); opaque to the server; null when off. */
  wrapped_keys: WrappedKeys | null;
  /** Entries the server can no longer read, of all the journal's entries. */
  sealed_entries: number;
  total_entries: number;
}

/** One wrapping of the private key: crypto_secretbox under a key from crypto_pwhash (Argon2id). */
export interface KeyWrapping {
  kdf: 'argon2id13';
  /** crypto_pwhash opslimit and memlimit (bytes). */
  ops: number;
  mem: number;
  /** Base64 (original variant): 16-byte salt, 24-byte nonce, and the sealed 32-byte private key. */
  salt: string;
  nonce: string;
  box: string;
}

/** The private key wrapped twice: once under the passphrase, once under the recovery code. */
export interface WrappedKeys {
  v: 1;
  passphrase: KeyWrapping;
  recovery: KeyWrapping;
}

/** What one sealed segment opens to (UTF-8 JSON): one text, one web write, or one migrated entry. */
export interface VaultSegment {
  text: string;
  title?: string;
  tags?: string[];
  /** When it was written (ISO-8601). */
  at: string;
  source: 'sms' | 'web';
}

/** A sealed entry as GET /api/vault/sealed hands it to the browser to open (turning the vault off). */
export interface SealedEntry {
  id: string;
  entry_date: string;
  source: 'sms' | 'web';
  created_at: string;
  updated_at: string;
  /** Base64 sealed boxes, in order; each opens to a VaultSegment. */
  sealed: string[];
  photos: SealedPhoto[];
  /** Its voice recordings still sealed, in order: every one must come back opened with the entry. */
  recordings: SealedRecording[];
}

export interface SealedPhoto {
  id: string;
  /** Base64 sealed box of the UTF-8 file name. */
  file_name: string;
  mime_type: string;
  /** Signed links to the sealed full image and thumbnail (VAULT_FILE_MAGIC, then a sealed box). */
  url: string;
  thumbnail_url: string;
}

export interface SealedRecording {
  id: string;
  mime_type: string;
  /** Signed link to the sealed audio (VAULT_FILE_MAGIC, then a sealed box). */
  url: string;
  /** Base64 sealed box opening to UTF-8 JSON {"transcript": string | null}; null: none kept. */
  transcript: string | null;
}

/** POST /api/vault/opened: entries the browser opened, to keep under the server's key again. */
export interface OpenedEntryInput {
  id: string;
  /** How many segments the browser opened: an entry that got another meanwhile is skipped. */
  segments: number;
  content: string;
  title: string | null;
  tags: string[];
  /** Every photo of the entry, opened: base64 of the full image and of the thumbnail. */
  photos: { id: string; file_name: string; full: string; thumb: string }[];
  /**
   * Every sealed recording of the entry, opened: base64 of the audio, and its transcript (null for
   * one not transcribed). An entry whose recordings changed meanwhile is skipped.
   */
  recordings: { id: string; audio: string; transcript: string | null }[];
}

/** The JSON size of wrapped_keys the server keeps at most (two wrappings take about 400 bytes). */
export const WRAPPED_KEYS_MAX_BYTES = 4096;
/**
 * The opened audio of one entry's recordings that POST /api/vault/opened takes at most (four voice
 * notes at the 25 MB cap; a day of ten five-minute calls is about 25 MB). The browser sends an
 * entry with recordings alone.
 */
export const OPENED_AUDIO_MAX_BYTES = 100 * 1024 * 1024;
/** Sealed entries handed out per GET /api/vault/sealed. */
export const SEALED_BATCH_MAX = 50;
/** Stored sealed photo files start with these bytes, then the sealed box. */
export const VAULT_FILE_MAGIC = 'JLVAULT1';
