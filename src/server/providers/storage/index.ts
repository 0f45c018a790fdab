import { createLocalDiskStorage } from './local-disk';
import type { PhotoStorage } from './types';

export type { PhotoStorage, StoredObject } from './types';

/** The photo storage STORAGE_URL names (a directory, optionally as file:…, for now). */
export function createPhotoStorage(storageUrl: string): PhotoStorage {
  return createLocalDiskStorage(storageUrl.replace(/^file:(\/\/)?/, ''));
}
