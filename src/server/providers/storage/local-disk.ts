import { createReadStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { isSafeStorageKey, type PhotoStorage } from './types';

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** Photos as files under one directory; the content type follows from the extension. */
export function createLocalDiskStorage(root: string): PhotoStorage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    if (!isSafeStorageKey(key)) throw new Error('Invalid storage key');
    return join(base, key);
  };
  return {
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      // 'wx': never overwrite an existing photo.
      await writeFile(path, body, { flag: 'wx', mode: 0o600 });
    },
    async replace(key, body) {
      const path = pathOf(key);
      // A new file beside the old, then a rename over it: atomic on one file system.
      const next = `${path}.${randomBytes(6).toString('hex')}.partial`;
      await writeFile(next, body, { flag: 'wx', mode: 0o600 });
      try {
        await rename(next, path);
      } catch (error) {
        await rm(next, { force: true });
        throw error;
      }
    },
    async get(key) {
      if (!isSafeStorageKey(key)) return null;
      const path = pathOf(key);
      try {
        const info = await stat(path);
        if (!info.isFile()) return null;
        return {
          stream: createReadStream(path),
          contentType: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
          size: info.size,
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
