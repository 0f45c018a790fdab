import { SmsSendError } from './types';

export interface TwilioAccount {
  accountSid: string;
  authToken: string;
  /** https://api.twilio.com, or a local fake in tests. */
  apiUrl: string;
  /** How long a request may take before it counts as unanswered (Twilio's own webhooks wait 15 s). */
  timeoutMs?: number;
}

// Failures that happen before a request leaves: Twilio cannot have seen it.
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * One call to Twilio's REST API (form-encoded, HTTP Basic auth); answers the JSON, or null for a 404.
 * Throws SmsSendError: permanent for a refusal other than throttling, `unconfirmed` when the request
 * may have reached Twilio without our hearing the answer, `retryAfterMs` from a 429's Retry-After.
 */
export async function twilioRequest(
  account: TwilioAccount,
  method: 'GET' | 'POST' | 'DELETE',
  /** A path under the account (`/Messages.json`), or a page address Twilio gave (`/2010-04-01/…`). */
  path: string,
  form?: URLSearchParams,
): Promise<Record<string, unknown> | null> {
  const url = path.startsWith('/2010-04-01/')
    ? `${account.apiUrl}${path}`
    : `${account.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(account.accountSid)}${path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        authorization: 'Basic ' + Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64'),
        accept: 'application/json',
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form,
      signal: AbortSignal.timeout(account.timeoutMs ?? 15_000),
    });
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    const unconfirmed = !(code && NOT_SENT.has(code));
    throw new SmsSendError(`Twilio ${unconfirmed ? 'did not answer' : 'unreachable'}: ${(err as Error).message}`, undefined, false, { unconfirmed });
  }
  const payload = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.status === 404) return null;
  if (!res.ok) {
    const code = payload.code !== undefined && payload.code !== null ? String(payload.code) : undefined;
    // 4xx other than throttling will not succeed on retry.
    const permanent = res.status >= 400 && res.status < 500 && res.status !== 429;
    throw new SmsSendError(`Twilio refused the request (${res.status}${code ? `, code ${code}` : ''})`, code, permanent, {
      retryAfterMs: res.status === 429 ? retryAfterMs(res.headers.get('retry-after')) : undefined,
    });
  }
  return payload;
}

/** Retry-After: seconds, or an HTTP date. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
