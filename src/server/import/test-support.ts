import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import type { TestApp } from '../test/app';
import { multipart } from '../journal/test-helpers';

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
