import { z } from 'zod';
import { ENTRY_TITLE_MAX, PHOTO_MAX_BYTES, PHOTOS_PER_ENTRY_MAX, TAG_MAX_LENGTH, TAGS_MAX } from '../../shared/journal';
import { vaultMessages } from '../../shared/vault-messages';
import { SEALED_BATCH_MAX, WRAPPED_KEYS_MAX_BYTES } from '../../shared/vault';
import { VOICE_MAX_BYTES } from '../../shared/voice-messages';

const errors = vaultMessages.errors;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Base64 (original variant) of exactly 32 bytes: an X25519 public key. */
const publicKey = z
  .string(errors.publicKeyInvalid)
  .refine((value) => value.length === 44 && BASE64.test(value) && Buffer.from(value, 'base64').length === 32, errors.publicKeyInvalid);

/** Opaque to the server (the browser's WrappedKeys): any JSON object within the size bound. */
const wrappedKeys = z
  .record(z.string(), z.unknown(), errors.wrappedKeysInvalid)
  .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= WRAPPED_KEYS_MAX_BYTES, errors.wrappedKeysTooLarge);

/** PUT /api/vault (turn it on) and PUT /api/vault/keys (wrap the same private key anew). */
export const vaultKeysSchema = z.object({
  /** Base64 of the X25519 public key everything is sealed to. */
  public_key: publicKey,
  /** The private key wrapped in the browser (docs/vault.md), kept as sent. */
  wrapped_keys: wrappedKeys,
});

/** GET /api/vault/sealed query. */
export const sealedBatchQuery = z.object({
  /** Entries per batch. */
  limit: z.coerce.number().int().min(1).max(SEALED_BATCH_MAX).default(SEALED_BATCH_MAX),
});

const base64Bytes = (max: number, what = 'Photos') => z.string().max(Math.ceil(max / 3) * 4 + 4).regex(BASE64, `${what} must be base64`);

/** POST /api/vault/opened: entries the browser opened, to keep under the server's key again. */
export const openedEntriesSchema = z.object({
  entries: z
    .array(
      z.object({
        id: z.string().min(1).max(100),
        /** How many segments were opened (an entry with more now is skipped). */
        segments: z.number().int().min(1).max(100_000),
        // The opened text as it was sealed: an entry that texts made long stays as long.
        content: z.string().max(1_000_000),
        title: z.string().max(ENTRY_TITLE_MAX).nullable(),
        tags: z.array(z.string().max(TAG_MAX_LENGTH)).max(TAGS_MAX),
        photos: z
          .array(
            z.object({
              id: z.string().min(1).max(100),
              file_name: z.string().max(255),
              full: base64Bytes(PHOTO_MAX_BYTES),
              thumb: base64Bytes(PHOTO_MAX_BYTES),
            }),
          )
          .max(PHOTOS_PER_ENTRY_MAX),
        /** Every sealed recording of the entry, opened (their audio together at most OPENED_AUDIO_MAX_BYTES: checked by the service). */
        recordings: z
          .array(
            z.object({
              id: z.string().min(1).max(100),
              audio: base64Bytes(VOICE_MAX_BYTES, 'Voice notes'),
              // As it was sealed: a transcript is as long as the words said.
              transcript: z.string().max(1_000_000).nullable(),
            }),
          )
          .max(10_000),
      }),
    )
    .min(1)
    .max(SEALED_BATCH_MAX),
});
export type OpenedEntriesInput = z.infer<typeof openedEntriesSchema>;
