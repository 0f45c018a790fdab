import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PHOTOS_PER_ENTRY_MAX_BYTES } from '../../shared/journal';
import { OPENED_AUDIO_MAX_BYTES } from '../../shared/vault';
import { vaultMessages } from '../../shared/vault-messages';
import { currentUser, requireUser } from '../auth/authenticate';
import { requireFreshProof, tellOwner } from '../auth/fresh-proof';
import { importedFingerprints } from './import-fingerprints';
import { importedEntriesSchema, saveImportedEntries } from './import-sealed';
import { openedEntriesSchema, sealedBatchQuery, vaultKeysSchema } from './schemas';
import { sealNextBatch } from './seal-journal';
import { finishTurningOff, getVault, rewrapVault, startTurningOff, turnOnVault } from './service';
import { requireTurningOff, saveOpenedEntries, sealedBatch } from './unseal-journal';

// An entry's opened photos and thumbnails and its recordings' audio, as base64 in JSON, with room
// for its text (about 162 MB). Read only from a user whose vault is being turned off.
const OPENED_BODY_LIMIT = Math.ceil(((2 * PHOTOS_PER_ENTRY_MAX_BYTES + OPENED_AUDIO_MAX_BYTES) * 4) / 3) + 2 * 1024 * 1024;
// A batch of imported entries, sealed: the browser sends at most about 4 MB; room for one long entry of our own export.
const IMPORTED_BODY_LIMIT = 8 * 1024 * 1024;

/** /api/vault: the user's Vault (docs/vault.md). Sign-in only: it is on any plan, and turning it off always works. */
export async function vaultRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  app.addHook('onRequest', requireUser);

  app.get('/', async (request) => getVault(ctx, currentUser(request).id));
  app.put('/', { schema: { body: vaultKeysSchema } }, async (request) => turnOnVault(ctx, currentUser(request).id, request.body));
  // What cannot be undone asks for a proof of the person from the last five minutes, and is told by e-mail.
  app.put('/keys', { schema: { body: vaultKeysSchema } }, async (request) => {
    const user = currentUser(request);
    await requireFreshProof(ctx, user);
    const view = await rewrapVault(ctx, user.id, request.body);
    await tellOwner(ctx, user, vaultMessages.mail.keysChanged);
    return view;
  });
  app.post('/seal', async (request) => sealNextBatch(ctx, currentUser(request).id));

  app.post('/unseal', async (request) => {
    const user = currentUser(request);
    await requireFreshProof(ctx, user);
    const view = await startTurningOff(ctx, user.id);
    await tellOwner(ctx, user, vaultMessages.mail.turningOff);
    return view;
  });
  app.get('/sealed', { schema: { querystring: sealedBatchQuery } }, async (request) => sealedBatch(ctx, currentUser(request).id, request.query.limit));
  app.post(
    '/opened',
    {
      bodyLimit: OPENED_BODY_LIMIT,
      schema: { body: openedEntriesSchema },
      // Before the body is read: so large a body is taken only while the vault is being turned off.
      onRequest: async (request) => {
        await requireTurningOff(ctx, currentUser(request).id);
      },
    },
    async (request) => saveOpenedEntries(ctx, currentUser(request).id, request.body),
  );
  // An import read and sealed in the browser; its photos follow through POST /api/entries/:id/photos.
  // What came in by import before the Vault, for the browser to check a file against.
  app.get('/imported', async (request) => importedFingerprints(ctx, currentUser(request).id));
  app.post('/imported', { bodyLimit: IMPORTED_BODY_LIMIT, schema: { body: importedEntriesSchema } }, async (request) =>
    saveImportedEntries(ctx, currentUser(request).id, request.body),
  );
  app.delete('/', async (request, reply) => {
    const user = currentUser(request);
    await requireFreshProof(ctx, user);
    await finishTurningOff(ctx, user.id);
    await tellOwner(ctx, user, vaultMessages.mail.off);
    return reply.status(204).send();
  });
}
