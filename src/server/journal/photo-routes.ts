import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addPhotosFieldsSchema } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { currentUser } from '../auth/authenticate';
import { invalidInput } from '../errors';
import { parseInput } from '../http/validate';
import { readMultipartForm } from '../photos/uploads';
import { addPhotos, deletePhoto } from './entry-photos';
import { presentEntry } from './present';
import { entryParams } from './routes';

const photoParams = entryParams.extend({ photoId: z.string().min(1).max(100) });

/** /api/entries/:id/photos: add photos (multipart, one or more files) and remove one. */
export async function photoRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  // The photos stream from the multipart form, read here rather than by a body schema.
  app.post('/:id/photos', { schema: { params: entryParams } }, async (request, reply) => {
    const { id } = request.params;
    if (!request.isMultipart()) throw invalidInput(messages.entries.noPhotos);
    const form = await readMultipartForm(request);
    // A Vault entry's photos come sealed, with their sealed names and types beside them.
    const sealed = parseInput(addPhotosFieldsSchema, form.fields);
    const entry = await addPhotos(ctx, currentUser(request).id, id, form.files, sealed);
    return reply.status(201).send(presentEntry(ctx, entry));
  });

  app.delete('/:id/photos/:photoId', { schema: { params: photoParams } }, async (request, reply) => {
    const { id, photoId } = request.params;
    await deletePhoto(ctx, currentUser(request).id, id, photoId);
    return reply.status(204).send();
  });
}
