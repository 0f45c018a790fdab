import type { FastifyRequest } from 'fastify';
import { PHOTO_MAX_BYTES, PHOTOS_PER_ENTRY_MAX, PHOTOS_PER_ENTRY_MAX_BYTES } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { AppError, invalidInput } from '../errors';
import { SEALED_FILE_OVERHEAD_BYTES } from '../crypto/sealed-box';

export interface PhotoUpload {
  /** The form field it came in: `thumbs` holds a Vault photo's sealed thumbnail. */
  field?: string;
  fileName: string | undefined;
  bytes: Buffer;
  /** The size sent, even when not all bytes were kept (the request is then refused as too large). */
  size: number;
}

interface MultipartForm {
  fields: Record<string, string | string[]>;
  files: PhotoUpload[];
}

/** A Vault photo's thumbnail, sealed in the browser, at most (a 480 px webp takes some tens of KB). */
export const SEALED_THUMB_MAX_BYTES = 1024 * 1024;
// Past this much, a request is refused anyway (over the per-entry total, and the thumbnails of a
// Vault entry's photos): count, don't keep.
const KEEP_AT_MOST_BYTES = PHOTOS_PER_ENTRY_MAX_BYTES + PHOTO_MAX_BYTES + PHOTOS_PER_ENTRY_MAX * SEALED_THUMB_MAX_BYTES;

function addField(fields: MultipartForm['fields'], name: string, value: string) {
  const before = fields[name];
  fields[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
}

/** Reads a multipart form: text fields and every file part (photos), within the photo limits. */
export async function readMultipartForm(request: FastifyRequest): Promise<MultipartForm> {
  const form: MultipartForm = { fields: {}, files: [] };
  let kept = 0;
  try {
    // Reading past the size limit throws FST_REQ_FILE_TOO_LARGE (a Vault photo is a little larger, sealed).
    const parts = request.parts({
      limits: { fileSize: PHOTO_MAX_BYTES + SEALED_FILE_OVERHEAD_BYTES, files: 2 * PHOTOS_PER_ENTRY_MAX + 1, fields: 60, fieldSize: 64 * 1024, parts: 90 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        addField(form.fields, part.fieldname, String(part.value));
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (kept + size <= KEEP_AT_MOST_BYTES) chunks.push(chunk);
      }
      const bytes = Buffer.concat(chunks);
      kept += bytes.length;
      form.files.push({ field: part.fieldname, fileName: part.filename, bytes, size });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', messages.entries.fileTooLarge);
    if (code === 'FST_FILES_LIMIT') throw invalidInput(messages.entries.tooManyPhotos);
    throw invalidInput(messages.generic.invalidInput);
  }
  return form;
}
