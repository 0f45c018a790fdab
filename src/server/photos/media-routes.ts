import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { messages } from '../../shared/messages';
import { readPhotoFile } from '../at-rest/photo-files';
import { forbidden, notFound } from '../errors';
import { parseInput } from '../http/validate';
import { thumbKeyOf } from './keys';
import { checkMediaLink, secondsLeft } from './signed-url';

const mediaQuery = z.object({
  exp: z.string().optional(),
  sig: z.string().optional(),
  variant: z.enum(['full', 'thumb']).default('full'),
});

/** GET /media/<key>?exp=&sig=&variant=: a photo, to whoever holds an unexpired signed link. */
export async function mediaRoutes(app: FastifyInstance): Promise<void> {
  const ctx = app.ctx;

  app.get('/*', async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    const { exp, sig, variant } = parseInput(mediaQuery, request.query);
    const check = checkMediaLink(ctx, key, exp, sig);
    if (check !== 'valid') throw forbidden(check === 'expired' ? messages.entries.linkExpired : messages.entries.linkInvalid);
    // Stored encrypted with the owner's key; opened here for whoever holds the signed link.
    const photo = await readPhotoFile(ctx, variant === 'thumb' ? thumbKeyOf(key) : key);
    if (!photo) throw notFound();
    return reply
      .header('cache-control', `private, max-age=${secondsLeft(ctx, exp!)}`)
      .header('content-length', photo.bytes.length)
      .type(photo.contentType)
      .send(photo.bytes);
  });
}
