import { SMS_MEDIA_MAX, SMS_MEDIA_MAX_BYTES } from '../../shared/journal';
import type { AppContext } from '../context';
import type { PhotoUpload } from './uploads';

interface MmsMedia {
  url: string;
  contentType: string;
}

const FETCH_TIMEOUT_MS = 20_000;

/**
 * Twilio serves MMS media behind HTTP Basic auth (account SID and auth token). The credentials
 * go only to Twilio's own API origin; redirects (to the media host) drop them, as fetch does
 * across origins.
 */
export function authorizationFor(ctx: AppContext, url: URL): string | undefined {
  const sms = ctx.config.sms;
  if (sms.provider !== 'twilio') return undefined;
  const twilioHost = url.protocol === 'https:' && (url.hostname === 'twilio.com' || url.hostname.endsWith('.twilio.com'));
  if (!twilioHost && url.origin !== new URL(sms.apiUrl).origin) return undefined;
  return `Basic ${Buffer.from(`${sms.accountSid}:${sms.authToken}`).toString('base64')}`;
}

async function readAtMost(response: Response, maxBytes: number): Promise<Buffer | null> {
  if (!response.body) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Fetches a text's media: at most 10 items and 5 MB in all. One that fails to download is
 * skipped; whether it is an image is decided later, by decoding it.
 */
export async function fetchMmsMedia(ctx: AppContext, media: readonly MmsMedia[]): Promise<PhotoUpload[]> {
  const fetched: PhotoUpload[] = [];
  let total = 0;
  for (const [index, item] of media.slice(0, SMS_MEDIA_MAX).entries()) {
    let url: URL;
    try {
      url = new URL(item.url);
    } catch {
      continue;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') continue;
    try {
      const authorization = authorizationFor(ctx, url);
      const response = await fetch(url, {
        headers: authorization ? { authorization } : {},
        redirect: 'follow',
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!response.ok) {
        await response.body?.cancel();
        continue;
      }
      const bytes = await readAtMost(response, SMS_MEDIA_MAX_BYTES - total);
      if (!bytes) break; // past the 5 MB budget: the rest would be too
      total += bytes.length;
      fetched.push({ fileName: `mms-${index + 1}`, bytes, size: bytes.length });
    } catch {
      continue;
    }
  }
  return fetched;
}

/**
 * Fetches one medium of a text (a voice note) up to `maxBytes`, with the provider's credentials
 * when it is the provider's; null when it fails to download or is larger.
 */
export async function fetchMmsFile(ctx: AppContext, rawUrl: string, maxBytes: number): Promise<Buffer | null> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  try {
    const authorization = authorizationFor(ctx, url);
    const response = await fetch(url, { headers: authorization ? { authorization } : {}, redirect: 'follow', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    return await readAtMost(response, maxBytes);
  } catch {
    return null;
  }
}
