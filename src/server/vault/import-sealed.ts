import { createHmac } from 'node:crypto';
import type { Insertable } from 'kysely';
import { z } from 'zod';
import { ENTRY_SOURCES } from '../../shared/journal';
import { isCalendarDay } from '../../shared/validation';
import { SEALED_IMPORT_BATCH_MAX, SEALED_IMPORT_SEGMENT_MAX_CHARS, type SealedImportResult } from '../../shared/vault-import';
import { vaultMessages } from '../../shared/vault-messages';
import { isValidTimeZone } from '../../shared/zones';
import type { AppContext } from '../context';
import type { JournalEntriesTable, JournalImportsTable } from '../db/tables';
import { conflict } from '../errors';
import { newId } from '../ids';
import { existingEntryIds, insertEntries, knownFingerprints, recordImports, smsDays } from '../import/repo';
import { changeJournal } from '../journal/changes';
import { entriesWithPhotos } from '../photos/repo';
import { recordingKeysOf } from '../voice/repo';
import { findVault, VAULT_IMPORT_PREFIX } from './repo';

// A Vault user's import (docs/vault.md §5): the browser reads the file by the server's own rules
// (shared/import), seals each entry as one segment, and sends the entries here in batches; their
// photos follow through POST /api/entries/:id/photos, sealed. The server keeps what it is sent as it
// does a sealed web write, and skips an entry imported before by the key the browser made for it
// (or, from our own export, by the id it had in this journal).

const errors = vaultMessages.errors;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const instant = z.string().max(40).refine((v) => !Number.isNaN(Date.parse(v)), 'Times must be ISO-8601 instants');

/** POST /api/vault/imported. */
export const importedEntriesSchema = z.object({
  entries: z
    .array(
      z.object({
        import_key: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'import_key must be base64url of 32 bytes'),
        original_id: z.string().min(1).max(100).optional(),
        entry_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine(isCalendarDay, 'Dates must be real days, written YYYY-MM-DD'),
        created_at: instant,
        updated_at: instant.optional(),
        time_zone: z.string().max(100).refine(isValidTimeZone, 'time_zone must be an IANA time zone'),
        source: z.enum(ENTRY_SOURCES),
        word_count: z.number().int().min(0).max(1_000_000),
        sealed: z
          .array(z.string().min(1).max(SEALED_IMPORT_SEGMENT_MAX_CHARS, errors.segmentTooLong).regex(BASE64, errors.segmentInvalid))
          .min(1, errors.segmentInvalid)
          .max(20),
      }),
    )
    .min(1)
    .max(SEALED_IMPORT_BATCH_MAX),
});
type ImportedEntriesInput = z.infer<typeof importedEntriesSchema>;

/** The browser's import key under the server's own key too, in a domain of its own. */
function fingerprintOf(ctx: AppContext, userId: string, importKey: string): string {
  return VAULT_IMPORT_PREFIX + createHmac('sha256', ctx.keys.storedHashes).update(`vault-import:${userId}:${importKey}`).digest('base64url');
}

const iso = (value: string) => new Date(value).toISOString();

/**
 * Writes a batch of sealed imported entries in the journal's transaction, while the vault is sealing
 * or on (409 otherwise). As the server's import does, the journal holds one SMS entry a day (and its
 * parts): another SMS entry for a day that has one comes in as a web entry.
 */
export async function saveImportedEntries(ctx: AppContext, userId: string, input: ImportedEntriesInput): Promise<SealedImportResult> {
  const fingerprints = input.entries.map((entry) => fingerprintOf(ctx, userId, entry.import_key));
  const now = ctx.clock.now().toISOString();
  const { results } = await changeJournal(ctx, userId, async (trx) => {
    const vault = await findVault(trx, userId);
    if (!vault) throw conflict(errors.off);
    if (vault.state === 'unsealing') throw conflict(errors.turningOff);
    const known = await knownFingerprints(trx, userId, fingerprints);
    const own = await existingEntryIds(trx, userId, input.entries.flatMap((e) => e.original_id ?? []));
    const smsBefore = await smsDays(trx, userId, [...new Set(input.entries.filter((e) => e.source === 'sms').map((e) => e.entry_date))]);
    const smsParts = new Map<string, number>();
    const rows: Insertable<JournalEntriesTable>[] = [];
    const importRows: JournalImportsTable[] = [];
    const results: SealedImportResult['entries'] = [];
    input.entries.forEach((entry, index) => {
      const fingerprint = fingerprints[index]!;
      const existing = known.get(fingerprint) ?? (entry.original_id && own.has(entry.original_id) ? entry.original_id : undefined);
      if (existing) return results.push({ id: existing, imported: false, has_photos: false, recording_keys: [] });
      const id = newId();
      // The same entry twice in one batch: the second is the first.
      known.set(fingerprint, id);
      const sms = entry.source === 'sms' && (smsParts.has(entry.entry_date) || !smsBefore.has(entry.entry_date));
      const part = sms ? (smsParts.get(entry.entry_date) ?? 0) : 0;
      if (sms) smsParts.set(entry.entry_date, part + 1);
      rows.push({
        id,
        user_id: userId,
        content: '',
        title: null,
        tags: '[]',
        sealed: JSON.stringify(entry.sealed),
        source: sms ? 'sms' : 'web',
        sms_part: part,
        entry_date: entry.entry_date,
        word_count: entry.word_count,
        created_at: iso(entry.created_at),
        updated_at: iso(entry.updated_at ?? entry.created_at),
        time_zone: entry.time_zone,
      });
      importRows.push({ user_id: userId, fingerprint, entry_id: id, imported_at: now });
      results.push({ id, imported: true });
    });
    await insertEntries(trx, rows);
    await recordImports(trx, importRows);
    // An entry found already imported says whether it has photos and which recordings it holds: a
    // browser whose import stopped before an entry's photos or recordings were all sent sends what
    // is missing when the file is imported again, and nothing twice.
    const found = results.filter((r) => !r.imported).map((r) => r.id);
    const withPhotos = await entriesWithPhotos(trx, userId, found);
    const recordingKeys = await recordingKeysOf(trx, userId, found);
    for (const result of results) {
      if (result.imported) continue;
      result.has_photos = withPhotos.has(result.id);
      result.recording_keys = recordingKeys.get(result.id) ?? [];
    }
    return { entryId: rows[0]?.id ?? '', changedEntryIds: rows.map((row) => row.id), results };
  });
  return { entries: results };
}
