import sharp from 'sharp';

const FORMATS = {
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  png: { mime: 'image/png', ext: 'png' },
  gif: { mime: 'image/gif', ext: 'gif' },
  webp: { mime: 'image/webp', ext: 'webp' },
} as const;
type ImageFormat = keyof typeof FORMATS;

/** Longest side of the list thumbnail. */
const THUMB_SIZE = 480;
/**
 * A small file can still unpack into a huge bitmap: anything beyond 50 megapixels (a phone's
 * largest photos are about 50) is refused from its header, before it is decoded.
 */
export const MAX_PIXELS = 50_000_000;

export interface PreparedImage {
  /** The image re-encoded in its own format, turned upright, with no metadata (EXIF, GPS…). */
  full: Buffer;
  /** A small webp for lists. */
  thumb: Buffer;
  mimeType: string;
  ext: string;
}

const isAllowed = (format: string | undefined): format is ImageFormat => !!format && format in FORMATS;

/** The image format as decoded from the bytes (never the name or the declared type), or null. */
export async function detectImageFormat(bytes: Buffer): Promise<ImageFormat | null> {
  try {
    const { format } = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
    return isAllowed(format) ? format : null;
  } catch {
    return null;
  }
}

/** True when the image's header gives it more pixels (every frame counted) than MAX_PIXELS; reads nothing else. */
export async function hasTooManyPixels(bytes: Buffer): Promise<boolean> {
  try {
    const { width, height, pageHeight, pages } = await sharp(bytes).metadata();
    return (width ?? 0) * (pageHeight ?? height ?? 0) * (pages ?? 1) > MAX_PIXELS;
  } catch {
    return false;
  }
}

/**
 * Decodes the whole image and re-encodes it: what is kept is only pixels. Null when the bytes
 * are not a complete jpeg, png, gif or webp image, or have more than MAX_PIXELS.
 */
export async function prepareImage(bytes: Buffer): Promise<PreparedImage | null> {
  try {
    if (await hasTooManyPixels(bytes)) return null;
    const { format, pages } = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
    if (!isAllowed(format)) return null;
    const animated = (pages ?? 1) > 1;
    // sharp drops all metadata unless asked to keep it; rotate() first applies the EXIF orientation.
    const full = await sharp(bytes, { limitInputPixels: MAX_PIXELS, animated, failOn: 'error' })
      .rotate()
      .toFormat(format, format === 'jpeg' ? { quality: 90, mozjpeg: true } : format === 'webp' ? { quality: 90 } : {})
      .toBuffer();
    const thumb = await sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: THUMB_SIZE, height: THUMB_SIZE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
    return { full, thumb, mimeType: FORMATS[format].mime, ext: FORMATS[format].ext };
  } catch {
    return null;
  }
}

/** A file name safe to store and show: no path, no control characters, at most 200 characters. */
export function cleanFileName(name: string | undefined, ext: string): string {
  // eslint-disable-next-line no-control-regex
  const base = (name ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(-200);
  return base || `photo.${ext}`;
}
