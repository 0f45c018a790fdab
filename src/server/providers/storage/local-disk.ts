import { createReadStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { link, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { messages } from '../../../shared/messages';
import { AppError } from '../../errors';
import { isSafeStorageKey, type PhotoStorage } from './types';

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** The disk is full (or the file too large for it): the person is told to try later, not shown a 500. */
function storageError(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG' ? new AppError('UNAVAILABLE', messages.entries.photoStorageFull) : error;
}

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
      // Written whole beside its place, then linked in: a write that fails part-way (a full disk)
      // leaves no file behind, and a link never overwrites an existing photo.
      const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
      try {
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        await writeFile(partial, body, { flag: 'wx', mode: 0o600 });
        await link(partial, path);
      } catch (error) {
        throw storageError(error);
      } finally {
        await rm(partial, { force: true });
      }
    },
    async replace(key, body) {
      const path = pathOf(key);
      // A new file beside the old, then a rename over it: atomic on one file system.
      const next = `${path}.${randomBytes(6).toString('hex')}.partial`;
      try {
        await writeFile(next, body, { flag: 'wx', mode: 0o600 });
        await rename(next, path);
      } catch (error) {
        await rm(next, { force: true });
        throw storageError(error);
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
