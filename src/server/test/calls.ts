// Test helpers for calls to the journal number: Twilio's voice and recording webhooks, signed as
// Twilio signs them, and real phone-call audio. Imported by tests only.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { VoiceCall } from '../db/tables';
import type { FakeTwilioRecording } from './fake-twilio';
import { JOURNAL_NUMBER, postTwilioWebhook, TWILIO_SID, type SmsTestApp } from './sms';

export const newCallSid = () => 'CA' + randomBytes(16).toString('hex');

/** Runs ffmpeg with `args` and answers what it wrote to stdout. */
function ffmpeg(args: readonly string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`ffmpeg exited ${code}: ${err}`))));
  });
}

/** A call recording as Twilio makes it: 8 kHz mono μ-law WAV, a tone of `seconds`. */
export function callWav(seconds = 1): Promise<Buffer> {
  return ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-ar', '8000', '-ac', '1', '-c:a', 'pcm_mulaw', '-f', 'wav', 'pipe:1']);
}

/** Twilio's "A call comes in" webhook from `from` (signed unless `signature` says otherwise). */
export async function postIncomingCall(t: SmsTestApp, from: string, options: { callSid?: string; signature?: string | null; path?: string } = {}) {
  const callSid = options.callSid ?? newCallSid();
  const params = { CallSid: callSid, AccountSid: TWILIO_SID, From: from, To: JOURNAL_NUMBER, CallStatus: 'ringing', Direction: 'inbound' };
  const res = await postTwilioWebhook(t, options.path ?? '/webhooks/twilio/voice', params, options.signature);
  return { res, callSid };
}

/** Twilio's recording status callback for a call's recording (signed unless `signature` says otherwise). */
export async function postRecordingCallback(
  t: SmsTestApp,
  callSid: string,
  recording: Pick<FakeTwilioRecording, 'sid' | 'url' | 'durationSeconds'>,
  options: { status?: string; accountSid?: string; signature?: string | null } = {},
) {
  const params = {
    AccountSid: options.accountSid ?? TWILIO_SID,
    CallSid: callSid,
    RecordingSid: recording.sid,
    RecordingUrl: recording.url,
    RecordingStatus: options.status ?? 'completed',
    RecordingDuration: String(recording.durationSeconds),
    RecordingChannels: '1',
    RecordingSource: 'RecordVerb',
  };
  return postTwilioWebhook(t, '/webhooks/twilio/recording', params, options.signature);
}

export async function voiceCall(t: SmsTestApp, callSid: string): Promise<VoiceCall | undefined> {
  return t.ctx.db.selectFrom('voice_calls').selectAll().where('call_sid', '=', callSid).executeTakeFirst();
}

export async function voiceCallsOf(t: SmsTestApp, userId: string): Promise<VoiceCall[]> {
  return t.ctx.db.selectFrom('voice_calls').selectAll().where('user_id', '=', userId).execute();
}
