import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
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
