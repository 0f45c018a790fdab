import type { VaultSegment } from '../../shared/vault';
import { VAULT_FILE_MAGIC } from '../../shared/vault';
import { loadSodium } from './sodium';

// The vault's box: everything the server seals for a vault user is a crypto_box_seal to their X25519
// public key, an ephemeral key pair per box, so the server can seal but never open (docs/vault.md).
// "Seal" and "open" mean only this box; the server's own key encrypts and decrypts (encryption.ts).

const MAGIC = Buffer.from(VAULT_FILE_MAGIC, 'latin1');
/** crypto_box_SEALBYTES: the ephemeral public key and the tag each sealed box adds. */
const SEAL_BYTES = 48;
/** What sealing adds to a file: the magic and the box's own bytes. */
export const SEALED_FILE_OVERHEAD_BYTES = MAGIC.length + SEAL_BYTES;

/** A segment sealed to the public key (base64 of the public key): base64 of the sealed box. */
export async function sealSegment(publicKey: string, segment: VaultSegment): Promise<string> {
  const sodium = await loadSodium();
  const key = Buffer.from(publicKey, 'base64');
  return Buffer.from(sodium.crypto_box_seal(Buffer.from(JSON.stringify(segment), 'utf8'), key)).toString('base64');
}

/** A short text (a photo's file name) sealed the same way, as base64. */
export async function sealText(publicKey: string, text: string): Promise<string> {
  const sodium = await loadSodium();
  return Buffer.from(sodium.crypto_box_seal(Buffer.from(text, 'utf8'), Buffer.from(publicKey, 'base64'))).toString('base64');
}

/** A file's bytes sealed for storage: VAULT_FILE_MAGIC, then the sealed box. */
export async function sealFileBytes(publicKey: string, plain: Uint8Array): Promise<Buffer> {
  const sodium = await loadSodium();
  return Buffer.concat([MAGIC, sodium.crypto_box_seal(plain, Buffer.from(publicKey, 'base64'))]);
}

// The smallest segment a text makes, as sealed JSON: `{"text":"","at":"…","source":"sms"}`.
const EMPTY_SEGMENT_BYTES = Buffer.byteLength(JSON.stringify({ text: '', at: new Date(0).toISOString(), source: 'sms' } satisfies VaultSegment));

/**
 * At least as many characters as the texts of these sealed segments hold, known without opening
 * them: each box is its segment's UTF-8 JSON plus SEAL_BYTES, and a character takes at least a byte.
 * What the server knows of a Vault entry's length (docs/vault.md §5: continuing a day past 10,000).
 */
export function sealedTextBound(segments: readonly string[]): number {
  return segments.reduce((sum, sealed) => sum + Math.max(0, Buffer.byteLength(sealed, 'base64') - SEAL_BYTES - EMPTY_SEGMENT_BYTES), 0);
}

/** Whether stored bytes are a vault-sealed file (sealing a file twice would lose it). */
export function isVaultFile(bytes: Uint8Array): boolean {
  return bytes.length > MAGIC.length && MAGIC.equals(bytes.subarray(0, MAGIC.length));
}
