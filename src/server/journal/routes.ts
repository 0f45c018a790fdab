import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createEntrySchema, entryFilterSchema, updateEntrySchema } from '../../shared/journal';
import { currentUser } from '../auth/authenticate';
import { preferredEncoding, SKIP_COMPRESSION_HOOKS, varyOnEncoding } from '../compression/index';
import { parseInput } from '../http/validate';
import { readMultipartForm } from '../photos/uploads';
import { presentEntry } from './present';
import { encodedPage, entriesPage } from './page-cache';
import { createEntry, deleteEntry, updateEntry } from './service';
import { journalStats } from './stats';

export const entryParams = z.object({ id: z.string().min(1).max(100) });

/** The list's filter when the query string is empty (the journal's first page, the commonest request). */
const NO_FILTER = entryFilterSchema.parse({});
Object.freeze(NO_FILTER.tags);
Object.freeze(NO_FILTER);

/** /api/entries: list with search and filters, edit, delete. Creating is in entryUploadRoutes. */
export async function entryRoutes(app: FastifyInstance): Promise<void> {
  const ctx = app.ctx;

  // Every page is compressed once and kept (page-cache.ts): the compression plugin has nothing to do.
  app.get('/', SKIP_COMPRESSION_HOOKS, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const filter = Object.keys(query).length === 0 ? NO_FILTER : parseInput(entryFilterSchema, query);
    const page = await entriesPage(ctx, currentUser(request).id, filter, request.journalRevision);
    reply.type('application/json; charset=utf-8');
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    const encoded = encoding && encodedPage(page, encoding);
    if (!encoded) return reply.send(page.json);
    // Already compressed: the compression hook passes an answer with a Content-Encoding through.
    varyOnEncoding(reply);
    return reply.header('content-encoding', encoding).send(await encoded);
  });

  app.patch('/:id', async (request) => {
    const { id } = parseInput(entryParams, request.params);
    const input = parseInput(updateEntrySchema, request.body);
    return presentEntry(ctx, await updateEntry(ctx, currentUser(request).id, id, input));
  });

  app.delete('/:id', async (request, reply) => {
    const { id } = parseInput(entryParams, request.params);
    await deleteEntry(ctx, currentUser(request).id, id);
    return reply.status(204).send();
  });
}

/**
 * POST /api/entries: create, from JSON or from a multipart form with photos. Registered where the
 * multipart plugin is, which adds its hooks to every request of the routes it covers.
 */
export async function entryUploadRoutes(app: FastifyInstance): Promise<void> {
  app.post('/', async (request, reply) => {
    const form = request.isMultipart() ? await readMultipartForm(request) : { fields: request.body, files: [] };
    const input = parseInput(createEntrySchema, form.fields);
    const entry = await createEntry(app.ctx, currentUser(request).id, input, form.files);
    return reply.status(201).send(presentEntry(app.ctx, entry));
  });
}

/** /api/stats: streak and totals. */
export async function statsRoutes(app: FastifyInstance): Promise<void> {
  app.get('/', async (request) => journalStats(app.ctx, currentUser(request).id));
}
