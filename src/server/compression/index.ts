import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** API answers smaller than this go out as they are: compressing them saves less than it costs. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Answers up to this size (a journal page is about 17 KB) are compressed in one call on the event
 * loop (at most about half a millisecond), not through a zlib stream: the stream's setup and its
 * trips to the thread pool cost the journal's first page more CPU than the compression itself.
 */
const SYNC_COMPRESSION_MAX_BYTES = 64 * 1024;

/**
 * Levels for answers made per request, chosen by measurement on the journal's first page
 * (bench/compression.mjs, figures in bench/RESULTS.md): brotli quality 2 makes an answer no bigger
 * than quality 4's (the plugin's default) for half its CPU; gzip level 4 costs about what that
 * brotli does, for the few clients without brotli. The built web app is compressed ahead, at the
 * highest levels (scripts/precompress.mjs), and passes through as it is.
 */
const BROTLI_QUALITY = 2;
const GZIP_LEVEL = 4;

export type ContentEncoding = 'br' | 'gzip';

/**
 * Compresses every answer above the threshold by Accept-Encoding (brotli first, then gzip). Must be
 * registered before the routes. Answers that already carry a Content-Encoding (the pre-compressed web
 * app) pass through, and the event stream is hijacked, so it is never compressed or buffered.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    syncThreshold: SYNC_COMPRESSION_MAX_BYTES,
    brotliOptions: { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    zlibOptions: { level: GZIP_LEVEL },
  });
}

/** The best encoding of ours the client accepts ("br;q=0" refuses brotli), or undefined for none. */
export function preferredEncoding(acceptEncoding: string | string[] | undefined): ContentEncoding | undefined {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name: ContentEncoding) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

/** Caches must keep one copy per encoding. */
export function varyOnEncoding(reply: FastifyReply): void {
  const vary = String(reply.getHeader('vary') ?? '');
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) return;
  reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}
