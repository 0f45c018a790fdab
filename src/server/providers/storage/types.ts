import type { Readable } from 'node:stream';

export interface StoredObject {
  stream: Readable;
  contentType: string;
  size: number;
}

/**
 * Where photo files live: local disk by default, or an S3-compatible bucket. Keys are
 * `user/entry/timestamp-rand.ext`; a key is written once and never overwritten (only `replace`
 * swaps its bytes, for the same picture re-encrypted).
 */
export interface PhotoStorage {
  /** Stores a new object; fails if the key already exists. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Swaps an existing object's bytes whole (key rotation re-encrypts photos): a reader sees the old
   * bytes or the new ones, never a mix, and a crash leaves the old object in place.
   */
  replace(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
}

/** Keys are ours, but check anyway: no climbing out of the root, no odd characters. */
export function isSafeStorageKey(key: string): boolean {
  return /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)*)+$/.test(key) && key.length <= 300;
}
