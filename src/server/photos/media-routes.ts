import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../shared/messages';
import { readPhotoFile, STORED_CONTENT_TYPE } from '../at-rest/photo-files';
import { forbidden, notFound } from '../errors';
import { isVaultFile } from '../crypto/sealed-box';
import { thumbKeyOf } from './keys';
import { checkMediaLink, secondsLeft } from './signed-url';

const mediaParams = z.object({ '*': z.string() });

const mediaQuery = z.object({
  exp: z.string().optional(),
  sig: z.string().optional(),
  variant: z.enum(['full', 'thumb']).default('full'),
});

/** GET /media/<key>?exp=&sig=&variant=: a photo, to whoever holds an unexpired signed link. */
export async function mediaRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  app.get('/*', { schema: { params: mediaParams, querystring: mediaQuery } }, async (request, reply) => {
    const key = request.params['*'];
    const { exp, sig, variant } = request.query;
    const check = checkMediaLink(ctx, key, exp, sig);
    if (check !== 'valid') throw forbidden(check === 'expired' ? messages.entries.linkExpired : messages.entries.linkInvalid);
    // Stored encrypted with the owner's key; decrypted here for whoever holds the signed link. A Vault
    // photo is sent as stored (sealed): only its owner's browser opens it.
    const photo = await readPhotoFile(ctx, variant === 'thumb' ? thumbKeyOf(key) : key);
    if (!photo) throw notFound();
    reply
      .header('cache-control', `private, max-age=${secondsLeft(ctx, exp!)}`)
      .header('accept-ranges', 'bytes')
      .type(isVaultFile(photo.bytes) ? STORED_CONTENT_TYPE : photo.contentType);
    // A player seeking in a voice recording asks for a part of it.
    const range = byteRange(request.headers.range, photo.bytes.length);
    if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${photo.bytes.length}`).send();
    if (range) {
      const part = photo.bytes.subarray(range.start, range.end + 1);
      return reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${photo.bytes.length}`).header('content-length', part.length).send(part);
    }
    return reply.header('content-length', photo.bytes.length).send(photo.bytes);
  });
}

/** One byte range of a `Range: bytes=…` header (several, or a malformed one: the whole file). */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
