import { PHOTO_MAX_BYTES, SEALED_PHOTO_TYPES } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { vaultMessages } from '../../shared/vault-messages';
import { AppError, invalidInput } from '../errors';
import { isVaultFile, SEALED_FILE_OVERHEAD_BYTES } from '../crypto/sealed-box';
import { SEALED_THUMB_MAX_BYTES, type PhotoUpload } from './uploads';

/** A Vault entry's photo as the browser sealed it: re-encoded there (no metadata), thumbnail made there. */
export interface SealedPhoto {
  /** The image and its thumbnail as stored: VAULT_FILE_MAGIC, then a sealed box. */
  full: Buffer;
  thumb: Buffer;
  /** Base64 sealed box of the file name. */
  fileName: string;
  mimeType: (typeof SEALED_PHOTO_TYPES)[number];
  ext: string;
  /** The opened image's size: what the photo limits count. */
  size: number;
}

const EXTENSIONS: Record<SealedPhoto['mimeType'], string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * The sealed photos of a form: `photos` files (the images) and `thumbs` files (their thumbnails),
 * paired in order with each photo's sealed name and type. The server cannot decode them: it checks
 * that each is a sealed file of a size a photo may have, and keeps them as they came.
 */
export function sealedPhotosOf(files: readonly PhotoUpload[], names: readonly string[] = [], types: readonly SealedPhoto['mimeType'][] = []): SealedPhoto[] {
  const fulls = files.filter((f) => f.field !== 'thumbs');
  const thumbs = files.filter((f) => f.field === 'thumbs');
  if (fulls.length !== thumbs.length || fulls.length !== names.length || fulls.length !== types.length) throw invalidInput(vaultMessages.errors.sealedPhotoInvalid);
  return fulls.map((full, i) => {
    const thumb = thumbs[i]!;
    if (full.size > PHOTO_MAX_BYTES + SEALED_FILE_OVERHEAD_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', messages.entries.fileTooLarge);
    if (thumb.size > SEALED_THUMB_MAX_BYTES || !isVaultFile(full.bytes) || !isVaultFile(thumb.bytes)) throw invalidInput(vaultMessages.errors.sealedPhotoInvalid);
    const mimeType = types[i]!;
    return { full: full.bytes, thumb: thumb.bytes, fileName: names[i]!, mimeType, ext: EXTENSIONS[mimeType], size: full.size - SEALED_FILE_OVERHEAD_BYTES };
  });
}
