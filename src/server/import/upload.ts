import type { FastifyRequest } from 'fastify';
import { messages } from '../../shared/messages';
import { AppError, invalidInput } from '../errors';
import { IMPORT_LIMITS } from './parse';

/** The multipart field `file` of an import request, read into memory within the ZIP size limit. */
export async function readImportFile(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw invalidInput(messages.importer.noFile);
  let file: Buffer | null = null;
  try {
    const parts = request.parts({ limits: { fileSize: IMPORT_LIMITS.zipBytes, files: 1, fields: 10, fieldSize: 1024, parts: 11 } });
    for await (const part of parts) {
      if (part.type === 'field') continue;
      // Reading past the size limit throws FST_REQ_FILE_TOO_LARGE.
      if (part.fieldname === 'file') file = await part.toBuffer();
      else part.file.resume();
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', messages.importer.tooLarge);
    if (code === 'FST_FILES_LIMIT') throw invalidInput(messages.importer.noFile);
    throw invalidInput(messages.generic.invalidInput);
  }
  if (!file || file.length === 0) throw invalidInput(messages.importer.noFile);
  return file;
}
