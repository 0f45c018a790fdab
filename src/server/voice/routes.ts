import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../shared/messages';
import { VOICE_MAX_BYTES, voiceMessages } from '../../shared/voice-messages';
import { currentUser } from '../auth/authenticate';
import { AppError, invalidInput, notFound, rateLimited } from '../errors';
import { findEntry } from '../journal/repo';
import { entryParams } from '../journal/routes';
import { hit, rateLimitKey } from '../rate-limit';
import { addRecording, deleteRecording, requestTranscription } from './recordings';

const recordingParams = entryParams.extend({ recordingId: z.string().min(1).max(100) });

/** Voice notes a user may add from the web in an hour (each is probed by a child process). */
const UPLOADS_PER_HOUR = 60;

/** The one audio file of the form (field `file`), kept in memory up to 25 MB; past it, refused. */
async function readAudioFile(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw invalidInput(voiceMessages.errors.noFile);
  let audio: Buffer | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: VOICE_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 11 } })) {
      if (part.type === 'field') continue;
      const chunks: Buffer[] = [];
      for await (const chunk of part.file as AsyncIterable<Buffer>) chunks.push(chunk);
      if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', voiceMessages.errors.tooLarge);
      if (part.fieldname === 'file') audio = Buffer.concat(chunks);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', voiceMessages.errors.tooLarge);
    throw invalidInput(messages.generic.invalidInput);
  }
  if (!audio) throw invalidInput(voiceMessages.errors.noFile);
  return audio;
}

/**
 * /api/entries/:id/recordings (DESIGN 6, voice): add a voice note to an entry (multipart field
 * `file`: audio recorded in the browser or picked), delete one, ask for a transcript again.
 */
export async function recordingRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  app.post('/:id/recordings', { schema: { params: entryParams } }, async (request, reply) => {
    const userId = currentUser(request).id;
    // Another's entry is not found before anything of the upload is read.
    if (!(await findEntry(ctx.db, userId, request.params.id))) throw notFound(messages.entries.entryNotFound);
    if (!(await hit(ctx, rateLimitKey('voice-upload', userId), { limit: UPLOADS_PER_HOUR, windowMs: 60 * 60 * 1000 }))) throw rateLimited(messages.generic.rateLimited);
    const audio = await readAudioFile(request);
    const { recording } = await addRecording(ctx, userId, { audio, origin: 'web', receivedAt: ctx.clock.now(), entryId: request.params.id });
    return reply.status(201).send({ recording });
  });

  app.delete('/:id/recordings/:recordingId', { schema: { params: recordingParams } }, async (request, reply) => {
    const { id, recordingId } = request.params;
    await deleteRecording(ctx, currentUser(request).id, id, recordingId);
    return reply.status(204).send();
  });
}

/** POST /api/entries/:id/recordings/:recordingId/transcribe → 202 (a JSON route: no multipart). */
export async function transcribeRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  app.post('/:id/recordings/:recordingId/transcribe', { schema: { params: recordingParams } }, async (request, reply) => {
    const { id, recordingId } = request.params;
    await requestTranscription(ctx, currentUser(request).id, id, recordingId);
    return reply.status(202).send({ transcript_status: 'pending' });
  });
}
