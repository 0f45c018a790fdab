import { twilioRequest, type TwilioAccount } from './twilio-request';
import { SmsSendError, type OutboundSms, type SentMessage, type SmsProvider } from './types';

interface TwilioSettings extends TwilioAccount {
  from: string;
  /** Sends through this Messaging Service (a pool of numbers) instead of from `from`. */
  messagingServiceSid?: string;
}

interface TwilioMessage {
  sid: string;
  to: string;
  body: string;
  status: string;
  direction: string;
  date_created: string;
}

/** Twilio's and our clocks may differ a little; a message created this much before our claim is still ours. */
const CLOCK_SLACK_MS = 60_000;
/** Pages of one day's messages to a number looked through (a journal user gets a few texts a day). */
const LOOKUP_PAGES = 5;

/** Sends through Twilio's Messages endpoint, finds messages whose answer was lost, and redacts them. */
export function createTwilioSms(settings: TwilioSettings): SmsProvider {
  return {
    name: 'twilio',
    async send(message: OutboundSms) {
      const form = new URLSearchParams({ To: message.to, Body: message.body });
      if (settings.messagingServiceSid) form.set('MessagingServiceSid', settings.messagingServiceSid);
      else form.set('From', settings.from);
      if (message.statusCallbackUrl) form.set('StatusCallback', message.statusCallbackUrl);
      const payload = await twilioRequest(settings, 'POST', '/Messages.json', form);
      if (typeof payload?.sid !== 'string') throw new SmsSendError('Twilio answered without a message', undefined, false);
      return { providerMessageId: payload.sid, status: typeof payload.status === 'string' ? payload.status : 'queued' };
    },

    async findSent({ to, body, since }) {
      const found = new Map<string, SentMessage>();
      const take = (payload: Record<string, unknown> | null) => {
        for (const m of (payload?.messages ?? []) as TwilioMessage[]) {
          const createdAt = new Date(Date.parse(m.date_created));
          if (m.to === to && m.body === body && m.direction.startsWith('outbound') && createdAt.getTime() >= since.getTime() - CLOCK_SLACK_MS) {
            found.set(m.sid, { providerMessageId: m.sid, status: m.status, createdAt });
          }
        }
        return typeof payload?.next_page_uri === 'string' ? payload.next_page_uri : null;
      };
      // Messages sent since the day of `since` (Twilio filters by day, in GMT)…
      const sentSince = new Date(since.getTime() - CLOCK_SLACK_MS).toISOString().slice(0, 10);
      let page: string | null = `/Messages.json?${new URLSearchParams({ To: to, 'DateSent>': sentSince, PageSize: '100' })}`;
      for (let i = 0; page && i < LOOKUP_PAGES; i++) page = take(await twilioRequest(settings, 'GET', page));
      // …and the newest to the number, for one Twilio still holds: it has no date sent yet.
      if (found.size === 0) take(await twilioRequest(settings, 'GET', `/Messages.json?${new URLSearchParams({ To: to, PageSize: '50' })}`));
      return [...found.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    },

    async redact(providerMessageId) {
      const message = `/Messages/${encodeURIComponent(providerMessageId)}`;
      const redacted = await twilioRequest(settings, 'POST', `${message}.json`, new URLSearchParams({ Body: '' }));
      if (!redacted || Number(redacted.num_media ?? 0) === 0) return;
      const media = await twilioRequest(settings, 'GET', `${message}/Media.json`);
      for (const item of (media?.media_list ?? []) as Array<{ sid: string }>) {
        await twilioRequest(settings, 'DELETE', `${message}/Media/${encodeURIComponent(item.sid)}.json`);
      }
    },
  };
}
