import type { VaultSegment } from '../../shared/vault';
import { VAULT_FILE_MAGIC } from '../../shared/vault';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { AppError } from '../errors';
import { findVault } from './repo';
import { loadSodium } from './sodium';

// Everything the server seals for a vault user is a crypto_box_seal to their X25519 public key: an
// ephemeral key pair per box, so the server can seal but never open (docs/vault.md).

const MAGIC = Buffer.from(VAULT_FILE_MAGIC, 'latin1');

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

/** Whether stored bytes are a vault-sealed file (sealing a file twice would lose it). */
export function isVaultFile(bytes: Uint8Array): boolean {
  return bytes.length > MAGIC.length && MAGIC.equals(bytes.subarray(0, MAGIC.length));
}

/** The user's public key; read inside the caller's transaction so it cannot change under it. */
async function publicKeyOf(db: Db, userId: string): Promise<string> {
  const vault = await findVault(db, userId);
  if (!vault) throw new AppError('CONFLICT', 'This journal has no vault');
  return vault.public_key;
}

/** Seals a segment to the user's public key (base64 sealed box). Pass the transaction that writes it. */
export async function sealForUser(ctx: AppContext, userId: string, segment: VaultSegment, db: Db = ctx.db): Promise<string> {
  return sealSegment(await publicKeyOf(db, userId), segment);
}

/** Seals a file's bytes (a photo, its thumbnail) to the user's public key, ready to store. */
export async function sealBytesForUser(ctx: AppContext, userId: string, plain: Uint8Array, db: Db = ctx.db): Promise<Buffer> {
  return sealFileBytes(await publicKeyOf(db, userId), plain);
}
