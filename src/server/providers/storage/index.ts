import type { Config } from '../../config';
import { createLocalDiskStorage } from './local-disk';
import { createS3Storage } from './s3';
import type { PhotoStorage } from './types';

export type { PhotoStorage, StoredObject } from './types';

/** Where photos are kept, as the configuration's `storage` section says (STORAGE_URL and S3_*). */
type StorageSettings = Config['storage'];

/** The photo storage the settings name: a directory on local disk, or an S3-compatible bucket. */
export function createPhotoStorage(settings: StorageSettings): PhotoStorage {
  return settings.provider === 's3' ? createS3Storage(settings) : createLocalDiskStorage(settings.directory);
}
