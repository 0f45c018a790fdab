import { EXPORTS_PER_WINDOW, PHOTO_PDF_EXPORTS_PER_WINDOW, RATE_WINDOW_MS } from '../../shared/limits';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { rateLimited } from '../errors';
import { isLimited, rateLimitKey, reserveHits, type LimitedKey } from '../rate-limit';

/** Every export counts here: generous, so trying formats never runs into it. */
const EXPORT_LIMIT = { limit: EXPORTS_PER_WINDOW, windowMs: RATE_WINDOW_MS };
/** PDFs that embed photos read and re-encode every image: these have an allowance of their own. */
const PHOTO_PDF_LIMIT = { limit: PHOTO_PDF_EXPORTS_PER_WINDOW, windowMs: RATE_WINDOW_MS };

/**
 * Takes one export from the user's allowance, or throws 429. A PDF with photos also takes from
 * the tight photo allowance (both or neither), so running out of it leaves text exports open.
 * Insert-then-count under a lock: a burst of parallel requests gets exactly the allowance.
 */
export async function takeExportAllowance(ctx: AppContext, userId: string, embedsPhotos: boolean): Promise<void> {
  const keys: LimitedKey[] = [{ key: rateLimitKey('export', userId), rule: EXPORT_LIMIT }];
  const photoKey = { key: rateLimitKey('export-photo-pdf', userId), rule: PHOTO_PDF_LIMIT };
  if (embedsPhotos) keys.push(photoKey);
  if (await reserveHits(ctx, keys)) return;
  const photosUsedUp = embedsPhotos && (await isLimited(ctx, photoKey.key, photoKey.rule));
  throw rateLimited(photosUsedUp ? messages.exportLimits.photoPdfRateLimited : messages.entries.exportRateLimited);
}
