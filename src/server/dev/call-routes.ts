import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { VOICE_MAX_BYTES } from '../../shared/voice-messages';
import { AppError, invalidInput, notFound } from '../errors';
import { parseInput } from '../http/validate';
import { downloadCallRecordings } from '../voice/calls/download-job';
import { answerCall, receiveRecording } from '../voice/calls/service';
import { spokenTexts } from '../voice/calls/spoken';
import { spokenIn } from '../voice/calls/twiml';
import { usPhone } from './phone-routes';
import { keepRecordedCall, recordedCall } from './recorded-calls';

/** What the caller says is at most a long voice note's words. */
const SAID_MAX_LENGTH = 10_000;

const callFields = z.object({
  /** The simulated phone that calls the journal number. */
  from: usPhone,
  /** What the caller says: the development transcriber hears exactly this. */
  said: z.string().max(SAID_MAX_LENGTH).default(''),
});

const recordingParams = z.object({ file: z.string().regex(/^RE[0-9a-f]{32}\.wav$/) });

/** A short tone as a phone call records it (8 kHz mono μ-law WAV), for a call made without a file. */
function toneWav(seconds = 2): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const args = ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-ar', '8000', '-ac', '1', '-c:a', 'pcm_mulaw', '-f', 'wav', 'pipe:1'];
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', () => reject(new AppError('UNAVAILABLE', 'ffmpeg is needed to make a tone; pick an audio file instead')));
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new AppError('UNAVAILABLE', 'ffmpeg could not make a tone'))));
  });
}

/**
 * The dev phone's calls (simulator only): `POST /api/dev/phone/calls` takes the caller's number,
 * what they say and their audio (a file; without one, a tone), and runs a real call's path: the
 * voice webhook's answer, the recording callback, and the download job, which fetches the
 * recording from this server as it would from Twilio. The caller's words are the transcript.
 */
export async function devCallRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart);
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post('/calls', async (request, reply) => {
    if (!request.isMultipart()) throw invalidInput('Send the call as a multipart form (from, said, audio)');
    const fields: Record<string, string> = {};
    let audio: Buffer | undefined;
    try {
      for await (const part of request.parts({ limits: { fileSize: VOICE_MAX_BYTES, files: 1, fields: 5, fieldSize: 64 * 1024 } })) {
        if (part.type === 'field') fields[part.fieldname] = String(part.value);
        else if (part.fieldname === 'audio') audio = await part.toBuffer();
        else await part.toBuffer();
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', 'Voice notes can be up to 25 MB.');
      throw invalidInput('The call could not be read');
    }
    const { from, said } = parseInput(callFields, fields);
    const ctx = app.ctx;
    const callSid = 'CA' + randomBytes(16).toString('hex');
    const answer = await answerCall(ctx, { callSid, accountSid: null, from });
    if (!answer.recorded) return reply.status(202).send({ call_sid: callSid, recorded: false, said, heard: spokenIn(answer.twiml) });

    const recordingSid = 'RE' + randomBytes(16).toString('hex');
    keepRecordedCall(ctx, recordingSid, { audio: audio?.length ? audio : await toneWav(), said });
    // Served by this server (below), as Twilio serves its recordings.
    const recordingUrl = `${request.protocol}://${request.host}/api/dev/phone/recordings/${recordingSid}`;
    await receiveRecording(ctx, { recordingSid, recordingUrl, recordingStatus: 'completed', recordingDuration: null, callSid, accountSid: '' }, request.log);
    await downloadCallRecordings(ctx, request.log);
    const call = await ctx.db.selectFrom('voice_calls').select(['status']).where('call_sid', '=', callSid).executeTakeFirst();
    return reply.status(202).send({ call_sid: callSid, recorded: call?.status === 'done', said, heard: `${spokenTexts.greeting} ${spokenTexts.saved}` });
  });

  typed.get('/recordings/:file', { schema: { params: recordingParams } }, async (request, reply) => {
    const call = recordedCall(app.ctx, request.params.file.slice(0, -'.wav'.length));
    if (!call) throw notFound('No such recording');
    return reply.type('audio/wav').send(call.audio);
  });
}
