import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { expect } from 'vitest';
import type { ImportProgress } from '../../shared/import';
import type { TestApp } from './app';
import { multipart, testImage } from './journal';
import { importsSettled } from '../import/runner';

export const fixturePath = (name: string) => join(__dirname, 'fixtures', name);
export const fixture = (name: string) => readFileSync(fixturePath(name));

export const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

/**
 * A Day One ZIP export as Day One writes it: Journal.json at the top, photos/MD5.TYPE beside it.
 * The fixture's placeholder md5s are replaced by the md5s of the photos given.
 */
export function dayOneZip(photos: { first: Buffer; second: Buffer }, journal = fixture('dayone-journal.json').toString('utf8')): Buffer {
  const text = journal.replace('PHOTO_MD5_FIRST', md5(photos.first)).replace('PHOTO_MD5_SECOND', md5(photos.second));
  return Buffer.from(
    zipSync({
      'Journal.json': new TextEncoder().encode(text),
      [`photos/${md5(photos.first)}.jpeg`]: new Uint8Array(photos.first),
      [`photos/${md5(photos.second)}.heic`]: new Uint8Array(photos.second),
    }),
  );
}

/** POST /api/import with the file as the multipart field `file`. */
export async function postImport(t: TestApp, headers: Record<string, string>, file: Buffer, name = 'Journal.json') {
  const form = await multipart({}, [{ name, bytes: file }], 'file');
  return t.app.inject({ method: 'POST', url: '/api/import', headers: { ...headers, ...form.headers }, payload: form.payload });
}

export async function importStatus(t: TestApp, headers: Record<string, string>, id: string): Promise<ImportProgress> {
  const res = await t.app.inject({ method: 'GET', url: `/api/imports/${id}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Imports a file and waits for the job to end; answers how it ended. */
export async function importFile(t: TestApp, headers: Record<string, string>, file: Buffer, name?: string): Promise<ImportProgress> {
  const res = await postImport(t, headers, file, name);
  expect(res.statusCode, res.body).toBe(202);
  const { import_id: id } = res.json() as { import_id: string };
  await importsSettled(t.app.ctx);
  return importStatus(t, headers, id);
}

/** The Brisbane trip (fixtures/dayone/brisbane-trip.json) with its photos: Journal.json alone, and the ZIP. */
export async function brisbaneTrip(): Promise<{ json: Buffer; zip: Buffer; photos: Record<string, Buffer> }> {
  const photos = {
    MD5_SUNRISE: await testImage('jpeg', { width: 640, height: 480, exif: 'GPS-SOUTH-BANK' }),
    MD5_KOALA: await testImage('png'),
    MD5_LIBERTY: await testImage('jpeg', { width: 300, height: 200 }),
    // HEIC: an ISO-BMFF box the journal cannot decode (it keeps JPEG, PNG, GIF and WebP).
    MD5_HEIC: Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic'), Buffer.alloc(512, 7)]),
  };
  let text = fixture('dayone/brisbane-trip.json').toString('utf8');
  for (const [placeholder, bytes] of Object.entries(photos)) text = text.replace(placeholder, md5(bytes));
  const types: Record<string, string> = { MD5_SUNRISE: 'jpeg', MD5_KOALA: 'png', MD5_LIBERTY: 'jpeg', MD5_HEIC: 'heic' };
  const files: Record<string, Uint8Array> = { 'Journal.json': new TextEncoder().encode(text) };
  for (const [placeholder, bytes] of Object.entries(photos)) files[`photos/${md5(bytes)}.${types[placeholder]}`] = new Uint8Array(bytes);
  // Day One packs videos and recordings beside the photos. The journal leaves videos out; this
  // recording is no audio (zeros), so it is counted as one that cannot be played.
  files['videos/6a1b2c3d4e5f60718293a4b5c6d7e8f9.mov'] = new Uint8Array(2048);
  files['audios/7b2c3d4e5f60718293a4b5c6d7e8f90a.m4a'] = new Uint8Array(1024);
  return { json: Buffer.from(text), zip: Buffer.from(zipSync(files)), photos };
}
