import { SmsSendError, type OutboundSms, type SmsProvider } from './types';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  from: string;
  /** https://api.twilio.com, or a local fake in tests. */
  apiUrl: string;
}

/** Sends through Twilio's Messages endpoint (REST, form-encoded, HTTP Basic auth). */
export function createTwilioSms(settings: TwilioSettings): SmsProvider {
  const endpoint = `${settings.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const authorization = 'Basic ' + Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64');
  return {
    name: 'twilio',
    async send(message: OutboundSms) {
      const form = new URLSearchParams({ To: message.to, From: settings.from, Body: message.body });
      if (message.statusCallbackUrl) form.set('StatusCallback', message.statusCallbackUrl);
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: form,
          signal: AbortSignal.timeout(15_000),
        });
      } catch (err) {
        throw new SmsSendError(`Twilio unreachable: ${(err as Error).message}`, undefined, false);
      }
      const payload = (await res.json().catch(() => ({}))) as { sid?: string; status?: string; code?: number; message?: string };
      if (!res.ok || !payload.sid) {
        const code = payload.code !== undefined ? String(payload.code) : undefined;
        // 4xx other than throttling will not succeed on retry.
        const permanent = res.status >= 400 && res.status < 500 && res.status !== 429;
        throw new SmsSendError(`Twilio refused the message (${res.status}${code ? `, code ${code}` : ''})`, code, permanent);
      }
      return { providerMessageId: payload.sid, status: payload.status ?? 'queued' };
    },
  };
}
