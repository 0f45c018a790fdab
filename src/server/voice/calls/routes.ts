import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertSignedByTwilio } from '../../sms/twilio-signature';
import { afterRecording, answerCall, receiveRecording } from './service';

/** Twilio's voice webhook fields ("A call comes in", and the Record verb's action). */
const incomingCallSchema = z.looseObject({
  CallSid: z.string().trim().min(1, 'CallSid is required').max(64),
  AccountSid: z.string().trim().max(64).optional(),
  From: z.string().trim().max(32).default(''),
});

const voiceQuery = z.object({ after: z.enum(['recording']).optional() });

/** Twilio's recording status callback fields; it carries no caller. */
const recordingSchema = z.looseObject({
  RecordingSid: z.string().trim().min(1, 'RecordingSid is required').max(64),
  RecordingUrl: z.url().max(2048),
  RecordingStatus: z.string().trim().min(1, 'RecordingStatus is required').max(32),
  RecordingDuration: z.coerce.number().int().min(0).optional(),
  CallSid: z.string().trim().min(1, 'CallSid is required').max(64),
  AccountSid: z.string().trim().max(64).default(''),
});

/** Calls to the journal number, at /webhooks/twilio beside the texts'. Every request must carry a valid signature. */
export async function voiceWebhookRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  // Before the fields are checked: the signature covers them (and the query) as Twilio sent them.
  app.addHook('preValidation', async (request) => assertSignedByTwilio(app.ctx.config, request));

  app.post('/voice', { schema: { body: incomingCallSchema, querystring: voiceQuery } }, async (request, reply) => {
    const { CallSid, AccountSid, From } = request.body;
    const twiml = request.query.after === 'recording' ? afterRecording() : (await answerCall(app.ctx, { callSid: CallSid, accountSid: AccountSid ?? null, from: From })).twiml;
    return reply.type('text/xml').send(twiml);
  });

  // Answered at once: the download job fetches the recording.
  app.post('/recording', { schema: { body: recordingSchema } }, async (request, reply) => {
    const body = request.body;
    await receiveRecording(
      app.ctx,
      {
        recordingSid: body.RecordingSid,
        recordingUrl: body.RecordingUrl,
        recordingStatus: body.RecordingStatus,
        recordingDuration: body.RecordingDuration ?? null,
        callSid: body.CallSid,
        accountSid: body.AccountSid,
      },
      request.log,
    );
    return reply.code(204).send();
  });
}
