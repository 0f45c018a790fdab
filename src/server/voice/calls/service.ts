import type { FastifyBaseLogger } from 'fastify';
import { findPhoneHolder, liveClaimsOn } from '../../auth/phone-claims';
import { isUniqueViolation } from '../../auth/repo';
import { getAccessStatus } from '../../billing/access';
import type { AppContext } from '../../context';
import { newId } from '../../ids';
import { CALL_RECORDINGS } from '../../jobs/wakeups';
import { localDate } from '../../journal/dates';
import { callMaxSeconds } from './limits';
import { spokenTexts } from './spoken';
import { greetAndRecord, sayAndHangUp } from './twiml';

/** Twilio's voice webhook fields that decide the answer. */
export interface IncomingCall {
  callSid: string;
  accountSid: string | null;
  from: string;
}

/** Where Twilio reports a finished recording, and asks what to say once the caller stops talking. */
export const RECORDING_CALLBACK_PATH = '/webhooks/twilio/recording';
export const AFTER_RECORDING_PATH = '/webhooks/twilio/voice?after=recording';

/**
 * Answers a call to the journal number. The verified holder of the number, with access and under
 * the day's calls, hears the greeting and is recorded, and the call is kept by its CallSid (the
 * recording callback carries no caller); anyone else hears what to do and is hung up on, and
 * nothing is kept. Twilio may deliver the webhook twice: the same call is answered the same way.
 */
export async function answerCall(ctx: AppContext, call: IncomingCall): Promise<{ twiml: string; recorded: boolean }> {
  const { publicUrl } = ctx.config;
  const refuse = (sentence: string) => ({ twiml: sayAndHangUp(sentence), recorded: false });
  const profile = await findPhoneHolder(ctx.db, call.from);
  if (!profile) {
    const claims = await liveClaimsOn(ctx.db, call.from, ctx.clock.now());
    return refuse(claims.length ? spokenTexts.unverified : spokenTexts.unknownNumber(publicUrl));
  }
  const record = () => ({
    twiml: greetAndRecord({
      greeting: spokenTexts.greeting,
      maxSeconds: callMaxSeconds(ctx),
      statusCallback: `${publicUrl}${RECORDING_CALLBACK_PATH}`,
      action: `${publicUrl}${AFTER_RECORDING_PATH}`,
    }),
    recorded: true,
  });
  const known = await ctx.db.selectFrom('voice_calls').select('user_id').where('call_sid', '=', call.callSid).executeTakeFirst();
  if (known?.user_id === profile.id) return record();
  if (!(await getAccessStatus(ctx, profile.id)).hasAccess) return refuse(spokenTexts.noAccess(publicUrl));

  const now = ctx.clock.now();
  const today = localDate(now, profile.timezone || 'UTC');
  const perDay = ctx.config.voiceCallsPerDay;
  const made = await ctx.db
    .selectFrom('voice_calls')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', profile.id)
    .where('local_date', '=', today)
    .executeTakeFirstOrThrow();
  if (Number(made.n) >= perDay) return refuse(spokenTexts.tooManyCalls(perDay));

  const at = now.toISOString();
  await ctx.db
    .insertInto('voice_calls')
    .values({
      id: newId(),
      call_sid: call.callSid,
      account_sid: call.accountSid,
      user_id: profile.id,
      from_number: call.from,
      local_date: today,
      started_at: at,
      status: 'calling',
      updated_at: at,
    })
    .onConflict((oc) => oc.column('call_sid').doNothing())
    .execute();
  return record();
}

/** What the caller hears once the recording ends. */
export const afterRecording = (): string => sayAndHangUp(spokenTexts.saved);

/** Twilio's recording status callback fields. */
export interface RecordingReport {
  recordingSid: string;
  recordingUrl: string;
  recordingStatus: string;
  recordingDuration: number | null;
  callSid: string;
  accountSid: string;
}

export type RecordingOutcome = 'queued' | 'ignored' | 'repeated' | 'unknown_call';

/**
 * Keeps a recording Twilio reports, by RecordingSid (a redelivery changes nothing), on the call the
 * voice webhook kept, and wakes the download job. Only a completed recording is fetched; another
 * status is kept and goes no further. A report for a call or account we do not know is ignored.
 */
export async function receiveRecording(ctx: AppContext, report: RecordingReport, log: FastifyBaseLogger): Promise<RecordingOutcome> {
  const sms = ctx.config.sms;
  const ourAccount = sms.provider !== 'twilio' || report.accountSid === sms.accountSid;
  const call = ourAccount ? await ctx.db.selectFrom('voice_calls').select(['id', 'recording_sid']).where('call_sid', '=', report.callSid).executeTakeFirst() : undefined;
  if (!call) {
    // Ids only: never the caller's number.
    log.warn({ recordingSid: report.recordingSid }, 'recording callback for a call or account this service does not know; ignored');
    return 'unknown_call';
  }
  if (call.recording_sid !== null) return 'repeated';
  const at = ctx.clock.now().toISOString();
  const completed = report.recordingStatus === 'completed';
  const result = await ctx.db
    .updateTable('voice_calls')
    .set({
      recording_sid: report.recordingSid,
      recording_url: report.recordingUrl,
      recording_status: report.recordingStatus,
      recording_duration: report.recordingDuration,
      recording_received_at: at,
      status: completed ? 'download' : 'ignored',
      next_at: completed ? at : null,
      attempts: 0,
      updated_at: at,
    })
    .where('id', '=', call.id)
    .where('recording_sid', 'is', null)
    .executeTakeFirst()
    .catch((error: unknown) => {
      // The same RecordingSid already kept (on another call): a redelivery all the same.
      if (isUniqueViolation(error)) return { numUpdatedRows: 0n };
      throw error;
    });
  if (Number(result.numUpdatedRows) === 0) return 'repeated';
  if (!completed) return 'ignored';
  ctx.jobs.wake(CALL_RECORDINGS);
  return 'queued';
}
