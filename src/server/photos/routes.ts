import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { messages } from '../../shared/messages';
import { currentUser } from '../auth/authenticate';
import { invalidInput } from '../errors';
import { parseInput } from '../http/validate';
import { entryParams } from '../journal/routes';
import { presentEntry } from '../journal/present';
import { addPhotos, deletePhoto } from './service';
import { readMultipartForm } from './uploads';

const photoParams = entryParams.extend({ photoId: z.string().min(1).max(100) });

/** /api/entries/:id/photos: add photos (multipart, one or more files) and remove one. */
export async function photoRoutes(app: FastifyInstance): Promise<void> {
  const ctx = app.ctx;

  app.post('/:id/photos', async (request, reply) => {
    const { id } = parseInput(entryParams, request.params);
    if (!request.isMultipart()) throw invalidInput(messages.entries.noPhotos);
    const form = await readMultipartForm(request);
    const entry = await addPhotos(ctx, currentUser(request).id, id, form.files);
    return reply.status(201).send(presentEntry(ctx, entry));
  });

  app.delete('/:id/photos/:photoId', async (request, reply) => {
    const { id, photoId } = parseInput(photoParams, request.params);
    await deletePhoto(ctx, currentUser(request).id, id, photoId);
    return reply.status(204).send();
  });
}
