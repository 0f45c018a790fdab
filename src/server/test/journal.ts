import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { JournalEntry } from '../../shared/journal';
import type { TestApp } from './app';
import { bearer, buildUser, signIn, type BuildUserOptions } from './factories';

export interface JournalTestUser {
  id: string;
  token: string;
  headers: { authorization: string };
}

/** A signed-in user with a running trial (unless trialEnd says otherwise). */
export async function journalUser(t: TestApp, options: BuildUserOptions = {}): Promise<JournalTestUser> {
  const user = await buildUser(t, { timezone: 'UTC', ...options });
  const token = await signIn(t, user);
  return { id: user.id, token, headers: bearer(token) };
}

export interface TestFile {
  name: string;
  bytes: Buffer;
  type?: string;
}

/** A multipart/form-data body (bytes and content-type header) built by the platform's FormData. */
export async function multipart(fields: Record<string, string | string[]>, files: TestFile[] = [], fileField = 'photos') {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  }
  for (const file of files) form.append(fileField, new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name);
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), headers: { 'content-type': response.headers.get('content-type')! } };
}

/** A small real image; `exif` writes text into its metadata (to check that it is stripped). */
export async function testImage(format: 'jpeg' | 'png' | 'gif' | 'webp' = 'jpeg', options: { width?: number; height?: number; exif?: string } = {}): Promise<Buffer> {
  let image = sharp({ create: { width: options.width ?? 64, height: options.height ?? 48, channels: 3, background: '#3b82f6' } });
  if (options.exif) image = image.withExifMerge({ IFD0: { ImageDescription: options.exif, Copyright: options.exif } });
  return image.toFormat(format).toBuffer();
}

/** An image of roughly `bytes` bytes (random pixels do not compress). */
export async function noisyPng(bytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt(bytes / 3));
  const raw = randomBytes(side * side * 3);
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

export async function createEntry(t: TestApp, user: JournalTestUser, body: Record<string, unknown>): Promise<JournalEntry> {
  const res = await t.app.inject({ method: 'POST', url: '/api/entries', headers: user.headers, payload: body });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function listEntries(t: TestApp, user: JournalTestUser, query = ''): Promise<{ entries: JournalEntry[]; nextCursor: string | null }> {
  const res = await t.app.inject({ method: 'GET', url: `/api/entries${query}`, headers: user.headers });
  if (res.statusCode !== 200) throw new Error(`list failed: ${res.statusCode} ${res.body}`);
  return res.json();
}
