import type { KeyWrapping, VaultSegment, WrappedKeys } from '../../../shared/vault';
import { VAULT_FILE_MAGIC } from '../../../shared/vault';
import { newRecoveryCode, normalizeRecoveryCode } from './recovery-code';
import { loadSodium, type Sodium } from './sodium';

// The vault's cryptography in the browser (docs/vault.md). Only this side ever holds the private
// key: it is made here, wrapped here, and opened here.

/**
 * Argon2id cost for wrapping the private key (bench/vault-unlock.mjs measures it in Chromium with
 * the CPU slowed 4×, as on a mid-range phone; figures in bench/RESULTS.md). The parameters travel
 * with each wrapping, so they can be raised later without breaking old ones.
 */
export const ARGON2_OPS = 3;
export const ARGON2_MEM_BYTES = 64 * 1024 * 1024;

/** The key pair in memory while the vault is unlocked. */
export interface VaultKeys {
  publicKey: Uint8Array;
  privateKey: Uint8Array;
}

/** The passphrase or recovery code does not open the wrapped key (or the wrapping is damaged). */
export class WrongSecretError extends Error {
  constructor() {
    super('The secret does not open the vault');
    this.name = 'WrongSecretError';
  }
}

const toBase64 = (sodium: Sodium, bytes: Uint8Array) => sodium.to_base64(bytes, sodium.base64_variants.ORIGINAL);
const fromBase64 = (sodium: Sodium, text: string) => sodium.from_base64(text, sodium.base64_variants.ORIGINAL);

/** The same passphrase typed on another device composes its accents the same way. */
const passphraseBytes = (passphrase: string) => new TextEncoder().encode(passphrase.normalize('NFC'));
const recoveryBytes = (code: string) => new TextEncoder().encode(normalizeRecoveryCode(code));

function wrap(sodium: Sodium, privateKey: Uint8Array, secret: Uint8Array, ops = ARGON2_OPS, mem = ARGON2_MEM_BYTES): KeyWrapping {
  const salt = sodium.randombytes_buf(sodium.crypto_pwhash_SALTBYTES);
  const key = sodium.crypto_pwhash(sodium.crypto_secretbox_KEYBYTES, secret, salt, ops, mem, sodium.crypto_pwhash_ALG_ARGON2ID13);
  const nonce = sodium.randombytes_buf(sodium.crypto_secretbox_NONCEBYTES);
  const box = sodium.crypto_secretbox_easy(privateKey, nonce, key);
  sodium.memzero(key);
  return { kdf: 'argon2id13', ops, mem, salt: toBase64(sodium, salt), nonce: toBase64(sodium, nonce), box: toBase64(sodium, box) };
}

// Costs past these would only hang the tab: a wrapping that asks for them is not ours.
const MAX_OPS = 20;
const MAX_MEM_BYTES = 1024 * 1024 * 1024;

function unwrap(sodium: Sodium, wrapping: KeyWrapping, secret: Uint8Array): Uint8Array {
  if (wrapping.kdf !== 'argon2id13' || !(wrapping.ops >= 1 && wrapping.ops <= MAX_OPS) || !(wrapping.mem >= 8192 && wrapping.mem <= MAX_MEM_BYTES)) throw new WrongSecretError();
  const key = sodium.crypto_pwhash(sodium.crypto_secretbox_KEYBYTES, secret, fromBase64(sodium, wrapping.salt), wrapping.ops, wrapping.mem, sodium.crypto_pwhash_ALG_ARGON2ID13);
  try {
    return sodium.crypto_secretbox_open_easy(fromBase64(sodium, wrapping.box), fromBase64(sodium, wrapping.nonce), key);
  } catch {
    throw new WrongSecretError();
  } finally {
    sodium.memzero(key);
  }
}

/** The private key out of one wrapping, checked against the vault's public key. */
async function open(wrapping: KeyWrapping, secret: Uint8Array, publicKey: string): Promise<VaultKeys> {
  const sodium = await loadSodium();
  const privateKey = unwrap(sodium, wrapping, secret);
  const derived = sodium.crypto_scalarmult_base(privateKey);
  if (toBase64(sodium, derived) !== publicKey) {
    sodium.memzero(privateKey);
    throw new WrongSecretError();
  }
  return { publicKey: derived, privateKey };
}

export interface NewVault {
  keys: VaultKeys;
  /** Base64 (original variant), as PUT /api/vault takes it. */
  publicKey: string;
  wrappedKeys: WrappedKeys;
  /** Shown once; never sent. */
  recoveryCode: string;
}

/**
 * A new vault: a key pair, a recovery code, and the private key wrapped under the passphrase and
 * under the code. Both wrappings are opened again before this returns: a vault that could not be
 * unlocked is never handed to the server.
 */
export async function createVault(passphrase: string): Promise<NewVault> {
  const sodium = await loadSodium();
  const pair = sodium.crypto_box_keypair();
  const recoveryCode = newRecoveryCode((bytes) => {
    bytes.set(sodium.randombytes_buf(bytes.length));
    return bytes;
  });
  const wrappedKeys: WrappedKeys = { v: 1, passphrase: wrap(sodium, pair.privateKey, passphraseBytes(passphrase)), recovery: wrap(sodium, pair.privateKey, recoveryBytes(recoveryCode)) };
  const publicKey = toBase64(sodium, pair.publicKey);
  for (const check of [() => unlockWithPassphrase(wrappedKeys, passphrase, publicKey), () => unlockWithRecoveryCode(wrappedKeys, recoveryCode, publicKey)]) {
    sodium.memzero((await check()).privateKey);
  }
  return { keys: { publicKey: pair.publicKey, privateKey: pair.privateKey }, publicKey, wrappedKeys, recoveryCode };
}

export function unlockWithPassphrase(wrapped: WrappedKeys, passphrase: string, publicKey: string): Promise<VaultKeys> {
  return open(wrapped.passphrase, passphraseBytes(passphrase), publicKey);
}

export function unlockWithRecoveryCode(wrapped: WrappedKeys, code: string, publicKey: string): Promise<VaultKeys> {
  return open(wrapped.recovery, recoveryBytes(code), publicKey);
}

/** A new passphrase: the private key wrapped anew under it; the recovery code's wrapping stays. */
export async function rewrapPassphrase(keys: VaultKeys, wrapped: WrappedKeys, newPassphrase: string): Promise<WrappedKeys> {
  const sodium = await loadSodium();
  const next: WrappedKeys = { ...wrapped, passphrase: wrap(sodium, keys.privateKey, passphraseBytes(newPassphrase)) };
  const check = await unlockWithPassphrase(next, newPassphrase, toBase64(sodium, keys.publicKey));
  sodium.memzero(check.privateKey);
  return next;
}

/** Opens one sealed segment (base64) to what was written. */
export async function openSegment(keys: VaultKeys, sealed: string): Promise<VaultSegment> {
  return JSON.parse(await openText(keys, sealed)) as VaultSegment;
}

/** Opens a sealed short text (base64), such as a photo's file name. */
export async function openText(keys: VaultKeys, sealed: string): Promise<string> {
  const sodium = await loadSodium();
  return sodium.to_string(sodium.crypto_box_seal_open(fromBase64(sodium, sealed), keys.publicKey, keys.privateKey));
}

/** Opens a stored vault file (a photo or its thumbnail): the magic, then a sealed box. */
export async function openFile(keys: VaultKeys, stored: Uint8Array): Promise<Uint8Array> {
  const sodium = await loadSodium();
  const magic = new TextEncoder().encode(VAULT_FILE_MAGIC);
  if (stored.length <= magic.length || !magic.every((b, i) => stored[i] === b)) throw new Error('Not a vault file');
  return sodium.crypto_box_seal_open(stored.subarray(magic.length), keys.publicKey, keys.privateKey);
}

/** Seals a segment in the browser (writing on the web), as the server seals a text. */
export async function sealSegment(publicKey: Uint8Array, segment: VaultSegment): Promise<string> {
  const sodium = await loadSodium();
  return toBase64(sodium, sodium.crypto_box_seal(sodium.from_string(JSON.stringify(segment)), publicKey));
}

/** Seals a short text (a photo's file name) in the browser: base64 of the sealed box. */
export async function sealText(publicKey: Uint8Array, text: string): Promise<string> {
  const sodium = await loadSodium();
  return toBase64(sodium, sodium.crypto_box_seal(sodium.from_string(text), publicKey));
}

/** Seals a file's bytes (a photo, its thumbnail) as the server stores a vault file: the magic, then a sealed box. */
export async function sealFile(publicKey: Uint8Array, plain: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const sodium = await loadSodium();
  const magic = new TextEncoder().encode(VAULT_FILE_MAGIC);
  const box = sodium.crypto_box_seal(plain, publicKey);
  const stored = new Uint8Array(magic.length + box.length);
  stored.set(magic);
  stored.set(box, magic.length);
  return stored;
}

/** Forgets the private key: its bytes are overwritten. */
export async function wipeKeys(keys: VaultKeys): Promise<void> {
  (await loadSodium()).memzero(keys.privateKey);
}
