import type { FastifyRequest } from 'fastify';
import { IMPORT_MAX_TEXT_BYTES, IMPORT_MAX_ZIP_BYTES } from '../../shared/import';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { AppError, invalidInput } from '../errors';
import { sniffUpload, SNIFF_BYTES, type UploadKind } from './sniff';
import { deleteParts, PART_BYTES, storePart, type UploadRef } from './stored-upload';

export interface StoredUpload {
  bytes: number;
  parts: number;
}

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', messages.importer.tooLarge);

/**
 * Streams the multipart field `file` into the photo store in encrypted parts, never holding more than
 * a part in memory. Its first bytes decide at once whether it can be a journal (sniff.ts), and
 * which size limit holds; a refused upload leaves nothing behind.
 */
export async function receiveUpload(ctx: AppContext, request: FastifyRequest, ref: UploadRef): Promise<StoredUpload> {
  if (!request.isMultipart()) throw invalidInput(messages.importer.noFile);
  let kind: UploadKind | null = null;
  let bytes = 0;
  let parts = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let found = false;
  const take = async (all: boolean) => {
    while (pendingBytes >= PART_BYTES || (all && pendingBytes > 0)) {
      const joined = Buffer.concat(pending, pendingBytes);
      const part = joined.subarray(0, PART_BYTES);
      pending = part.length < joined.length ? [joined.subarray(PART_BYTES)] : [];
      pendingBytes = joined.length - part.length;
      await storePart(ctx, ref, parts, part);
      parts += 1;
    }
  };
  try {
    const files = request.parts({ limits: { fileSize: IMPORT_MAX_ZIP_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 11 } });
    for await (const field of files) {
      if (field.type === 'field') continue;
      if (field.fieldname !== 'file' || found) {
        field.file.resume();
        continue;
      }
      found = true;
      for await (const chunk of field.file as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (!kind && bytes >= SNIFF_BYTES) kind = sniffUpload(Buffer.concat(pending, pendingBytes), false);
        if (kind === 'text' && bytes > IMPORT_MAX_TEXT_BYTES) throw tooLarge();
        await take(false);
      }
    }
    if (!found) throw invalidInput(messages.importer.noFile);
    // A file shorter than the sniff: judged whole.
    if (!kind) sniffUpload(Buffer.concat(pending, pendingBytes), true);
    await take(true);
    return { bytes, parts };
  } catch (error) {
    await deleteParts(ctx, ref, parts + 1);
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_FILES_LIMIT') throw invalidInput(messages.importer.noFile);
    throw invalidInput(messages.generic.invalidInput);
  }
}
