import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../shared/messages';
import { readPhotoFile, SEALED_CONTENT_TYPE } from '../at-rest/photo-files';
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
    // Stored encrypted with the owner's key; opened here for whoever holds the signed link. A Vault
    // photo is sent as stored (sealed): only its owner's browser opens it.
    const photo = await readPhotoFile(ctx, variant === 'thumb' ? thumbKeyOf(key) : key);
    if (!photo) throw notFound();
    return reply
      .header('cache-control', `private, max-age=${secondsLeft(ctx, exp!)}`)
      .header('content-length', photo.bytes.length)
      .type(isVaultFile(photo.bytes) ? SEALED_CONTENT_TYPE : photo.contentType)
      .send(photo.bytes);
  });
}
