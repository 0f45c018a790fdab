import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { isSafeStorageKey, type PhotoStorage } from './types';

export interface S3StorageSettings {
  bucket: string;
  /** Put before every key: '' or ending in '/'. */
  prefix?: string;
  /** An S3-compatible server's address; AWS itself when absent. */
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Address the bucket in the path (most S3-compatible servers) instead of the host name. */
  forcePathStyle: boolean;
}

/** Raised by put when the key is already taken. */
export class StorageKeyExistsError extends Error {
  constructor(key: string) {
    super(`Storage key already exists: ${key}`);
    this.name = 'StorageKeyExistsError';
  }
}

const statusOf = (error: unknown) => (error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined);
const nameOf = (error: unknown) => (error instanceof Error ? error.name : undefined);
const isMissing = (error: unknown) => nameOf(error) === 'NoSuchKey' || nameOf(error) === 'NotFound' || statusOf(error) === 404;
/** The server refused a conditional write because the object exists (or a racing write won). */
const isTaken = (error: unknown) =>
  nameOf(error) === 'PreconditionFailed' || nameOf(error) === 'ConditionalRequestConflict' || statusOf(error) === 412 || statusOf(error) === 409;
/** The server does not do conditional writes at all. */
const isUnsupported = (error: unknown) => nameOf(error) === 'NotImplemented' || statusOf(error) === 501;

/**
 * Photos in an S3 (or S3-compatible) bucket. A put never overwrites: it asks first (HeadObject)
 * and writes with `If-None-Match: *`, which S3 and most compatible servers enforce atomically;
 * servers that ignore the header still get the check, and one that refuses it is asked without.
 */
export function createS3Storage(settings: S3StorageSettings, client?: S3Client): PhotoStorage {
  const s3 =
    client ??
    new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Checksums only where S3 requires them: many compatible servers reject the newer headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  const Bucket = settings.bucket;
  const prefix = settings.prefix ?? '';
  const objectKey = (key: string) => {
    if (!isSafeStorageKey(key)) throw new Error('Invalid storage key');
    return prefix + key;
  };
  let conditionalWrites = true;

  const exists = async (Key: string) => {
    try {
      await s3.send(new HeadObjectCommand({ Bucket, Key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  };

  return {
    async put(key, body, contentType) {
      const Key = objectKey(key);
      if (await exists(Key)) throw new StorageKeyExistsError(key);
      const write = (conditional: boolean) =>
        s3.send(
          new PutObjectCommand({
            Bucket,
            Key,
            Body: body,
            ContentType: contentType,
            ContentLength: body.length,
            ...(conditional ? { IfNoneMatch: '*' } : {}),
          }),
        );
      try {
        await write(conditionalWrites);
      } catch (error) {
        if (isTaken(error)) throw new StorageKeyExistsError(key);
        if (!conditionalWrites || !isUnsupported(error)) throw error;
        conditionalWrites = false;
        await write(false);
      }
    },

    async replace(key, body, contentType) {
      // One PUT replaces an object whole: readers get the old version or the new one.
      await s3.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: body, ContentType: contentType, ContentLength: body.length }));
    },

    async get(key) {
      if (!isSafeStorageKey(key)) return null;
      try {
        const object = await s3.send(new GetObjectCommand({ Bucket, Key: prefix + key }));
        const body = object.Body;
        if (!body) return null;
        const contentType = object.ContentType ?? 'application/octet-stream';
        // In Node the body is a Readable (the SDK's IncomingMessage), streamed as it comes; without
        // a length (or in another shape) it is read whole so the size is known.
        if (body instanceof Readable && object.ContentLength !== undefined) {
          return { stream: body, contentType, size: object.ContentLength };
        }
        const bytes = Buffer.from(await body.transformToByteArray());
        return { stream: Readable.from([bytes]), contentType, size: bytes.length };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      try {
        await s3.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },
  };
}
