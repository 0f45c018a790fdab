import {
  PHOTO_MAX_BYTES,
  PHOTO_TYPES,
  PHOTOS_PER_ENTRY_MAX,
  PHOTOS_PER_ENTRY_MAX_BYTES,
  photosTooLargeMessage,
  photosWouldExceedMessage,
} from '../../../shared/journal-rules';
import { messages } from '../../../shared/messages';

/** The file picker's accept list: any image, then the checks below say which ones we keep. */
export const PHOTO_ACCEPT = 'image/*';

/** The photos already on an entry (when editing); zero for a new entry. */
export interface PhotoRoom {
  count: number;
  bytes: number;
}

interface PhotoSelection {
  accepted: File[];
  /** The spec's messages for what was refused, each once. */
  errors: string[];
}

function isAllowedType(file: File): boolean {
  const fromMime = /^image\/([a-z0-9.+-]+)$/i.exec(file.type)?.[1]?.toLowerCase();
  const fromName = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  const allowed = PHOTO_TYPES as readonly string[];
  return fromMime ? allowed.includes(fromMime) : !!fromName && allowed.includes(fromName);
}

/**
 * Spec 5: type (jpeg, jpg, png, gif, webp), at most 10 MB each and 10 MB for the whole entry,
 * at most 10 photos. Files are taken in order; one that breaks a rule is refused with its message.
 */
export function selectPhotos(files: readonly File[], chosen: readonly File[], existing: PhotoRoom = { count: 0, bytes: 0 }): PhotoSelection {
  const accepted: File[] = [];
  const errors = new Set<string>();
  const isNewEntry = existing.count === 0 && existing.bytes === 0;
  let count = existing.count + chosen.length;
  const currentBytes = existing.bytes + chosen.reduce((sum, f) => sum + f.size, 0);
  let bytes = currentBytes;
  for (const file of files) {
    if (!isAllowedType(file)) {
      errors.add(messages.entries.invalidFileType);
    } else if (file.size > PHOTO_MAX_BYTES) {
      errors.add(messages.entries.fileTooLarge);
    } else if (count + 1 > PHOTOS_PER_ENTRY_MAX) {
      errors.add(messages.entries.tooManyPhotos);
    } else if (bytes + file.size > PHOTOS_PER_ENTRY_MAX_BYTES) {
      errors.add(isNewEntry ? photosTooLargeMessage(bytes + file.size) : photosWouldExceedMessage(bytes + file.size, currentBytes));
    } else {
      accepted.push(file);
      count += 1;
      bytes += file.size;
    }
  }
  return { accepted, errors: [...errors] };
}

/** A photo's alternative text: 'Photo 2 of 3 from Tuesday, March 3, 2026'. */
export const photoAlt = (index: number, count: number, day: string) => `Photo ${index + 1} of ${count} from ${day}`;
