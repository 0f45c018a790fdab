import { messages } from '../../../../shared/messages';
import { ApiError } from '../../../api/errors';
import { SEALED_PHOTO_MARK } from '../../journal/photo-src';
import { vaultKeys } from '../key-store';
import { openFile, sealFile, sealText, type VaultKeys } from '../vault-crypto';
import { VaultLockedError } from './locked';

// A Vault's photos in the browser: shown by opening their sealed files here, and written by
// re-encoding them here (which drops their metadata, as the server does for other journals), with a
// thumbnail, all sealed before upload.

/** Opened photos by their storage path (links change every few minutes; the photo does not). */
const openedUrls = new Map<string, Promise<string>>();

const pathOf = (url: string) => url.split('?')[0]!;

/** A blob: address of the photo (or thumbnail) behind a sealed link, opened once per unlock. */
export function openedPhotoUrl(markedUrl: string): Promise<string> {
  const keys = vaultKeys();
  if (!keys) return Promise.reject(new VaultLockedError());
  const url = markedUrl.slice(0, -SEALED_PHOTO_MARK.length);
  let opened = openedUrls.get(pathOf(url));
  if (!opened) {
    opened = (async () => {
      // Signed links: no session needed.
      const response = await fetch(url);
      if (!response.ok) throw new Error(`A sealed photo could not be fetched (${response.status})`);
      const bytes = await openFile(keys, new Uint8Array(await response.arrayBuffer()));
      return URL.createObjectURL(new Blob([new Uint8Array(bytes)]));
    })();
    opened.catch(() => openedUrls.delete(pathOf(url)));
    openedUrls.set(pathOf(url), opened);
  }
  return opened;
}

/** The opened bytes of the photo behind a sealed link (an export made here). */
export async function openedPhotoBytes(markedUrl: string): Promise<Uint8Array> {
  const keys = vaultKeys();
  if (!keys) throw new VaultLockedError();
  const response = await fetch(markedUrl.slice(0, -SEALED_PHOTO_MARK.length));
  if (!response.ok) throw new Error(`A sealed photo could not be fetched (${response.status})`);
  return openFile(keys, new Uint8Array(await response.arrayBuffer()));
}

/** The opened photos' addresses go with the keys. */
export function forgetOpenedPhotos(): void {
  for (const opened of openedUrls.values()) void opened.then((url) => URL.revokeObjectURL(url), () => undefined);
  openedUrls.clear();
}

const MAX_PIXELS = 50_000_000;
const THUMB_SIZE = 480;

async function encode(image: ImageBitmap, width: number, height: number, type: string, quality: number): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d')!.drawImage(image, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality));
  if (!blob) throw new ApiError(400, 'INVALID_INPUT', messages.entries.invalidFileType);
  return blob;
}

/** A picture as the server keeps one: upright, in its own format (a GIF's first frame as PNG), with no metadata, and a webp thumbnail. */
export async function preparePhoto(file: File): Promise<{ full: Blob; thumb: Blob }> {
  const image = await createImageBitmap(file, { imageOrientation: 'from-image' }).catch(() => null);
  if (!image) throw new ApiError(400, 'INVALID_INPUT', messages.entries.invalidFileType);
  try {
    if (image.width * image.height > MAX_PIXELS) throw new ApiError(400, 'INVALID_INPUT', messages.entries.tooManyPixels);
    const type = file.type === 'image/png' || file.type === 'image/webp' ? file.type : file.type === 'image/gif' ? 'image/png' : 'image/jpeg';
    const scale = Math.min(1, THUMB_SIZE / Math.max(image.width, image.height));
    return {
      full: await encode(image, image.width, image.height, type, 0.9),
      thumb: await encode(image, Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale)), 'image/webp', 0.75),
    };
  } finally {
    image.close();
  }
}

const sealedBlob = async (keys: VaultKeys, blob: Blob) => new Blob([await sealFile(keys.publicKey, new Uint8Array(await blob.arrayBuffer()))]);

/** Adds photos to a form as POST /api/entries and /photos take a Vault entry's: each sealed with its thumbnail, name and type. */
export async function appendSealedPhotos(keys: VaultKeys, form: FormData, files: readonly File[]): Promise<void> {
  for (const file of files) {
    const { full, thumb } = await preparePhoto(file);
    form.append('photos', await sealedBlob(keys, full), 'photo');
    form.append('thumbs', await sealedBlob(keys, thumb), 'thumb');
    form.append('photo_names', await sealText(keys.publicKey, file.name || 'photo'));
    form.append('photo_types', full.type);
  }
}
