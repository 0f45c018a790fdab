import { createHmac } from 'node:crypto';
import { MEDIA_LINK_TTL_SECONDS } from '../../shared/journal';
import type { AppContext } from '../context';
import { safeEqual } from '../crypto/tokens';

// Links are issued on a five-minute grid, so a page reloaded within it gets the same URLs and
// the browser's cache keeps working; every link still expires at most an hour after it is issued.
const ISSUE_GRID_SECONDS = 300;

const signature = (key: Buffer, storageKey: string, expires: number) =>
  createHmac('sha256', key).update(`${storageKey}\n${expires}`).digest('base64url');

type MediaVariant = 'full' | 'thumb';

/** When links issued now expire (Unix seconds): the same for every link issued in one grid step. */
function mediaLinkExpiry(ctx: AppContext): number {
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  return now - (now % ISSUE_GRID_SECONDS) + MEDIA_LINK_TTL_SECONDS;
}

/** `/media/<key>?exp=…&sig=…&variant=…`: a capability to read one photo for up to an hour. */
export function signedMediaUrl(ctx: AppContext, storageKey: string, variant: MediaVariant = 'full'): string {
  const expires = mediaLinkExpiry(ctx);
  const sig = signature(ctx.keys.links, storageKey, expires);
  return `/media/${storageKey}?exp=${expires}&sig=${sig}&variant=${variant}`;
}

type MediaLinkCheck = 'valid' | 'expired' | 'invalid';

export function checkMediaLink(ctx: AppContext, storageKey: string, exp: string | undefined, sig: string | undefined): MediaLinkCheck {
  const expires = Number(exp);
  if (!exp || !sig || !Number.isSafeInteger(expires)) return 'invalid';
  if (!safeEqual(signature(ctx.keys.links, storageKey, expires), sig)) return 'invalid';
  return expires * 1000 <= ctx.clock.now().getTime() ? 'expired' : 'valid';
}

/** Seconds the link has left (for the cache header). */
export function secondsLeft(ctx: AppContext, exp: string): number {
  return Math.max(0, Number(exp) - Math.floor(ctx.clock.now().getTime() / 1000));
}
