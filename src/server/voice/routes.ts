import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ENTRY_CONTENT_MAX, normalizeEntryText } from '../../shared/journal';
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
/**
 * Recordings a Vault user's import (read in the browser) may add in an hour, one upload each, sent
 * one at a time. A Day One journal may hold hundreds; the server's own import of a ZIP probes as many
 * (IMPORTS_PER_WINDOW imports of up to thousands each), so this is no more than it allows.
 */
const IMPORT_UPLOADS_PER_HOUR = 1000;
const HOUR_MS = 60 * 60 * 1000;

/** A text field's bytes at most: a transcript of ENTRY_CONTENT_MAX characters, each up to 4 bytes in UTF-8. */
const FIELD_MAX_BYTES = ENTRY_CONTENT_MAX * 4 + 1024;
const SOURCE_KEY_MAX = 200;
const TEXT_FIELDS = ['transcript', 'transcript_in_text', 'source_key'] as const;
type TextField = (typeof TEXT_FIELDS)[number];

/** What an upload carries beside its audio (an import's: the transcript it already has, where it came from). */
interface UploadFields {
  transcript?: string;
  transcriptInText?: boolean;
  sourceKey?: string;
}

/** The text fields read so far, checked (400 with what is wrong). */
function checkedFields(raw: Partial<Record<TextField, string>>): UploadFields {
  const fields: UploadFields = {};
  if (raw.transcript !== undefined) {
    const transcript = normalizeEntryText(raw.transcript);
    if (transcript.length > ENTRY_CONTENT_MAX) throw invalidInput(voiceMessages.errors.transcriptTooLong);
    fields.transcript = transcript;
  }
  if (raw.transcript_in_text !== undefined) {
    if (raw.transcript_in_text !== 'true' && raw.transcript_in_text !== 'false') throw invalidInput(voiceMessages.errors.transcriptInTextInvalid);
    if (raw.transcript === undefined) throw invalidInput(voiceMessages.errors.transcriptInTextAlone);
    fields.transcriptInText = raw.transcript_in_text === 'true';
  }
  if (raw.source_key !== undefined) {
    const key = raw.source_key;
    // eslint-disable-next-line no-control-regex
    if (!key.startsWith('import:') || key.length <= 'import:'.length || key.length > SOURCE_KEY_MAX || /[\u0000-\u001f\u007f]/.test(key)) throw invalidInput(voiceMessages.errors.sourceKeyInvalid);
    fields.sourceKey = key;
  }
  return fields;
}

/**
 * The form of an upload: the one audio file (field `file`), kept in memory up to 25 MB (past it,
 * refused), and the optional text fields `transcript`, `transcript_in_text` and `source_key`, which
 * come before the file. `beforeFile` runs once they are read and before any of the file is.
 */
async function readAudioForm(request: FastifyRequest, beforeFile: (fields: UploadFields) => Promise<void>): Promise<{ audio: Buffer } & UploadFields> {
  if (!request.isMultipart()) throw invalidInput(voiceMessages.errors.noFile);
  let audio: Buffer | null = null;
  const raw: Partial<Record<TextField, string>> = {};
  let fields: UploadFields | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: VOICE_MAX_BYTES, files: 1, fields: 10, fieldSize: FIELD_MAX_BYTES, parts: 11 } })) {
      if (part.type === 'field') {
        const name = part.fieldname as TextField;
        if (!TEXT_FIELDS.includes(name)) continue;
        if (fields) throw invalidInput(voiceMessages.errors.fieldsAfterFile);
        if (raw[name] !== undefined) throw invalidInput(voiceMessages.errors.fieldTwice(name));
        if (part.valueTruncated) throw invalidInput(name === 'transcript' ? voiceMessages.errors.transcriptTooLong : voiceMessages.errors.sourceKeyInvalid);
        raw[name] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      fields ??= checkedFields(raw);
      if (part.fieldname === 'file') await beforeFile(fields);
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
  return { audio, ...(fields ?? checkedFields(raw)) };
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
    const upload = await readAudioForm(request, async ({ sourceKey }) => {
      // An import's recordings count apart from voice notes added by hand: a journal may hold hundreds.
      const allowed = sourceKey
        ? await hit(ctx, rateLimitKey('voice-import', userId), { limit: IMPORT_UPLOADS_PER_HOUR, windowMs: HOUR_MS })
        : await hit(ctx, rateLimitKey('voice-upload', userId), { limit: UPLOADS_PER_HOUR, windowMs: HOUR_MS });
      if (!allowed) throw rateLimited(messages.generic.rateLimited);
    });
    const { recording, added } = await addRecording(ctx, userId, {
      audio: upload.audio,
      // An import's recording (source_key `import:…`) is added once, and leaves the entry's time as the file gave it.
      origin: upload.sourceKey ? 'import' : 'web',
      receivedAt: ctx.clock.now(),
      entryId: request.params.id,
      ...(upload.transcript !== undefined && { transcript: upload.transcript, transcriptInText: upload.transcriptInText ?? false }),
      ...(upload.sourceKey && { sourceKey: upload.sourceKey, keepEntryTime: true }),
    });
    return reply.status(added ? 201 : 200).send({ recording });
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
