import type { AppContext } from '../../context';
import { createLocalDiskStorage } from './local-disk';
import type { PhotoStorage } from './types';

export type { PhotoStorage, StoredObject } from './types';

const instances = new WeakMap<AppContext, PhotoStorage>();

/** The app's photo storage, built once per app from STORAGE_URL (a directory for now). */
export function photoStorage(ctx: AppContext): PhotoStorage {
  let storage = instances.get(ctx);
  if (!storage) {
    if (/^s3:\/\//.test(ctx.config.storageUrl)) throw new Error('S3 storage is not available yet; set STORAGE_URL to a directory');
    storage = createLocalDiskStorage(ctx.config.storageUrl.replace(/^file:(\/\/)?/, ''));
    instances.set(ctx, storage);
  }
  return storage;
}
