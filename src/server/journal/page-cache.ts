import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { EntryFilter } from '../../shared/journal';
import { COMPRESSION_THRESHOLD_BYTES, type ContentEncoding } from '../compression/index';
import type { AppContext } from '../context';
import { mediaLinkExpiry } from '../photos/signed-url';
import type { CachedEntry } from './cache';
import { presentEntry } from './present';
import { pageOfEntries } from './search';

/** Pages kept per journal snapshot: the first page and a search or two. */
const PAGES_PER_SNAPSHOT = 4;

/**
 * One page of GET /api/entries as JSON, with the compressed copies asked for so far. The JSON is
 * kept as UTF-8 bytes: sent as a string, its 16 KB were measured and encoded again for every answer
 * (about 10 µs of a request's CPU time).
 */
export interface KeptPage {
  json: Buffer;
  encoded: Partial<Record<ContentEncoding, Promise<Buffer>>>;
}

// Keyed by the journal snapshot the journal cache hands out: a change makes a new snapshot, so a
// page can never outlive the entries it shows, and the pages go with the snapshot they came from.
const pages = new WeakMap<readonly CachedEntry[], Map<string, KeptPage>>();

/**
 * GET /api/entries: one page, presented with its signed photo links. The same page asked again
 * for the same snapshot and while links issued now are the same (a five-minute grid) is the same
 * answer, so it is kept: presenting, signing photo links and serialising were a fifth of the
 * request's CPU time, for the page the app asks for every time it opens. `revision`: the
 * journal's, when the request already read it (journal/gate.ts).
 */
export async function entriesPage(ctx: AppContext, userId: string, filter: EntryFilter, revision?: number): Promise<KeptPage> {
  const entries = await ctx.journalCache.entries(userId, revision);
  const key = `${mediaLinkExpiry(ctx)}\n${JSON.stringify(filter)}`;
  let kept = pages.get(entries);
  const known = kept?.get(key);
  if (known !== undefined) return known;
  const { page, nextCursor } = pageOfEntries(entries, filter);
  const answer: KeptPage = { json: Buffer.from(JSON.stringify({ entries: page.map((entry) => presentEntry(ctx, entry)), nextCursor })), encoded: {} };
  if (!kept) {
    kept = new Map();
    pages.set(entries, kept);
  }
  if (kept.size >= PAGES_PER_SNAPSHOT) kept.delete(kept.keys().next().value!);
  kept.set(key, answer);
  return answer;
}

const compressors: Record<ContentEncoding, (json: Buffer) => Promise<Buffer>> = {
  br: (json) => promisify(brotliCompress)(json, { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (json) => promisify(gzip)(json),
};

/**
 * The page compressed for a browser that accepts `encoding`, or null when it is too small to be
 * worth it. Compressed once per kept page: compressing 16 KB for every answer cost a browser's
 * request about ten times the rest of it.
 */
export function encodedPage(page: KeptPage, encoding: ContentEncoding): Promise<Buffer> | null {
  if (page.json.length < COMPRESSION_THRESHOLD_BYTES) return null;
  let encoded = page.encoded[encoding];
  if (!encoded) {
    encoded = compressors[encoding](page.json);
    page.encoded[encoding] = encoded;
    // A failed compression is not kept: the next request tries again.
    encoded.catch(() => delete page.encoded[encoding]);
  }
  return encoded;
}
