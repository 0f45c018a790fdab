import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createEntrySchema, entryFilterSchema, updateEntrySchema } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { currentUser } from '../auth/authenticate';
import { invalidInput } from '../errors';
import { parseInput } from '../http/validate';
import { readMultipartForm } from '../photos/uploads';
import { presentEntry } from './present';
import { pageOfEntries } from './search';
import { createEntry, deleteEntry, updateEntry } from './service';
import { journalStats } from './stats';

export const entryParams = z.object({ id: z.string().min(1).max(100) });

/** /api/entries: list with search and filters, edit, delete. Creating is in entryUploadRoutes. */
export async function entryRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  app.get('/', { schema: { querystring: entryFilterSchema } }, async (request) => {
    const journal = await ctx.journalCache.journal(currentUser(request).id, request.journalRevision);
    const { page, nextCursor } = pageOfEntries(journal.entries, request.query);
    // A Vault journal is opened, searched and filtered in the browser: `vault` tells it so.
    return { entries: page.map((entry) => presentEntry(ctx, entry)), nextCursor, ...(journal.vault && { vault: true as const }) };
  });

  app.patch('/:id', { schema: { params: entryParams, body: updateEntrySchema } }, async (request) => {
    return presentEntry(ctx, await updateEntry(ctx, currentUser(request).id, request.params.id, request.body));
  });

  app.delete('/:id', { schema: { params: entryParams } }, async (request, reply) => {
    await deleteEntry(ctx, currentUser(request).id, request.params.id);
    return reply.status(204).send();
  });
}

/**
 * POST /api/entries: create, from JSON or from a multipart form with photos. Registered where the
 * multipart plugin is, which adds its hooks to every request of the routes it covers.
 */
export async function entryUploadRoutes(app: FastifyInstance): Promise<void> {
  // A multipart form is read here, not by a body schema: its photos stream to the photo store.
  app.post('/', async (request, reply) => {
    const key = idempotencyKey(request.headers['idempotency-key']);
    const form = request.isMultipart() ? await readMultipartForm(request) : { fields: request.body, files: [] };
    const input = parseInput(createEntrySchema, form.fields);
    const entry = await createEntry(app.ctx, currentUser(request).id, input, form.files, key);
    return reply.status(201).send(presentEntry(app.ctx, entry));
  });
}

/** The `Idempotency-Key` header of a new entry: 1 to 200 visible characters, or none. */
function idempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(header)) throw invalidInput(messages.entries.idempotencyKeyInvalid, { field: 'Idempotency-Key' });
  return header;
}

/** /api/stats: streak and totals. */
export async function statsRoutes(app: FastifyInstance): Promise<void> {
  app.get('/', async (request) => journalStats(app.ctx, currentUser(request).id));
}
