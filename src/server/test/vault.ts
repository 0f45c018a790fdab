import { randomBytes } from 'node:crypto';
import type { OpenedEntryInput, SealedEntry, VaultSegment, VaultView, WrappedKeys } from '../../shared/vault';
import { VAULT_FILE_MAGIC } from '../../shared/vault';
import type { JournalTestUser } from './journal';
import type { TestApp } from './app';
import { sealFileBytes, sealSegment, sealText } from '../crypto/sealed-box';
import { loadSodium } from '../crypto/sodium';

/** What the browser holds after setting up a vault: the key pair (the private key never leaves it). */
export interface BrowserKeys {
  publicKey: string;
  privateKey: Uint8Array;
  open(sealed: string): string;
  openSegment(sealed: string): VaultSegment;
  /** A stored vault file (magic, then a sealed box) opened. */
  openFile(stored: Uint8Array): Buffer;
}

export async function browserKeys(): Promise<BrowserKeys> {
  const sodium = await loadSodium();
  const pair = sodium.crypto_box_keypair();
  const open = (sealed: Uint8Array) => Buffer.from(sodium.crypto_box_seal_open(sealed, pair.publicKey, pair.privateKey));
  return {
    publicKey: Buffer.from(pair.publicKey).toString('base64'),
    privateKey: pair.privateKey,
    open: (sealed) => open(Buffer.from(sealed, 'base64')).toString('utf8'),
    openSegment: (sealed) => JSON.parse(open(Buffer.from(sealed, 'base64')).toString('utf8')) as VaultSegment,
    openFile(stored) {
      const magic = Buffer.from(VAULT_FILE_MAGIC, 'latin1');
      if (!magic.equals(Buffer.from(stored.subarray(0, magic.length)))) throw new Error('not a vault file');
      return open(stored.subarray(magic.length));
    },
  };
}

/** Wrapped keys as the browser would send them (opaque to the server: random bytes will do). */
export function wrappedKeys(): WrappedKeys {
  const wrapping = () => ({
    kdf: 'argon2id13' as const,
    ops: 3,
    mem: 64 * 1024 * 1024,
    salt: randomBytes(16).toString('base64'),
    nonce: randomBytes(24).toString('base64'),
    box: randomBytes(48).toString('base64'),
  });
  return { v: 1, passphrase: wrapping(), recovery: wrapping() };
}

export async function vaultRequest(t: TestApp, user: JournalTestUser, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) {
  return t.app.inject({ method, url, headers: user.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

/** Turns the user's vault on with these keys (201/200 expected). */
export async function turnOn(t: TestApp, user: JournalTestUser, keys: BrowserKeys): Promise<VaultView> {
  const res = await vaultRequest(t, user, 'PUT', '/api/vault', { public_key: keys.publicKey, wrapped_keys: wrappedKeys() });
  if (res.statusCode !== 200) throw new Error(`PUT /api/vault: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Calls POST /api/vault/seal until the vault is on; answers every step's view. */
export async function sealJournal(t: TestApp, user: JournalTestUser): Promise<VaultView[]> {
  const steps: VaultView[] = [];
  for (let i = 0; i < 1000; i++) {
    const res = await vaultRequest(t, user, 'POST', '/api/vault/seal');
    if (res.statusCode !== 200) throw new Error(`POST /api/vault/seal: ${res.statusCode} ${res.body}`);
    steps.push(res.json());
    if (steps.at(-1)!.state === 'on') return steps;
  }
  throw new Error('The vault never finished sealing');
}

/** A segment sealed as the browser seals a web write. */
export function sealedWrite(keys: BrowserKeys, segment: VaultSegment): Promise<string> {
  return sealSegment(keys.publicKey, segment);
}

export interface PhotoToSeal {
  name: string;
  /** The image as the browser re-encoded it, and its thumbnail. */
  bytes: Buffer;
  thumb: Buffer;
  type: string;
}

/** A multipart body as the browser sends a Vault entry's photos: each image, thumbnail and name sealed; the type beside them. */
export async function sealedPhotoForm(keys: BrowserKeys, fields: Record<string, string | string[]>, photos: readonly PhotoToSeal[]) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  for (const photo of photos) {
    form.append('photos', new Blob([new Uint8Array(await sealFileBytes(keys.publicKey, photo.bytes))]), 'photo');
    form.append('thumbs', new Blob([new Uint8Array(await sealFileBytes(keys.publicKey, photo.thumb))]), 'thumb');
    form.append('photo_names', await sealText(keys.publicKey, photo.name));
    form.append('photo_types', photo.type);
  }
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), headers: { 'content-type': response.headers.get('content-type')! } };
}

/**
 * What the browser does with an entry of GET /api/vault/sealed when the vault is turned off: opens
 * its segments, its photos and its recordings (audio and transcript) with the private key.
 */
export async function openSealedEntry(t: TestApp, keys: BrowserKeys, entry: SealedEntry): Promise<OpenedEntryInput> {
  const media = async (url: string) => (await t.app.inject({ method: 'GET', url })).rawPayload;
  const segments = entry.sealed.map((s) => keys.openSegment(s));
  const last = <K extends 'title' | 'tags'>(field: K) => segments.findLast((s) => s[field] !== undefined)?.[field];
  return {
    id: entry.id,
    segments: segments.length,
    content: segments.map((s) => s.text).join('\n\n'),
    title: last('title') ?? null,
    tags: last('tags') ?? [],
    photos: await Promise.all(
      entry.photos.map(async (p) => ({
        id: p.id,
        file_name: keys.open(p.file_name),
        full: keys.openFile(await media(p.url)).toString('base64'),
        thumb: keys.openFile(await media(p.thumbnail_url)).toString('base64'),
      })),
    ),
    recordings: await Promise.all(
      entry.recordings.map(async (r) => ({
        id: r.id,
        audio: keys.openFile(await media(r.url)).toString('base64'),
        transcript: r.transcript === null ? null : (JSON.parse(keys.open(r.transcript)) as { transcript: string | null }).transcript,
      })),
    ),
  };
}
