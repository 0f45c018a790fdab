import type { Insertable } from 'kysely';
import { countWords } from '../../shared/journal';
import { ENTRY_REASONS, type ImportReason } from '../../shared/import';
import type { AppContext } from '../context';
import type { JournalEntriesTable, JournalImportsTable, JournalPhotoRow } from '../db/tables';
import { newId } from '../ids';
import { encryptEntryText } from '../journal/entry-cipher';
import { changeJournal } from '../journal/changes';
import { vaultMessages } from '../../shared/vault-messages';
import { insertPhotos } from '../photos/repo';
import { writingPhotoFiles } from '../photos/service';
import { saveProgress, type ImportJob } from './jobs-repo';
import { fingerprinter } from './fingerprints';
import { preparePhotos, storePhotoFiles } from './photos';
import { namesRecordings } from './recordings';
import type { ImportReader } from './reader/client';
import { entryExample, type ReasonTally } from './reasons';
import * as repo from './repo';
import type { ImportedEntry, ImportedPhoto } from '../../shared/import/types';

/** Where an import stands; written with every chunk, so a restart goes on from there. */
export interface ImportProgressState {
  position: number;
  imported: number;
  skipped: number;
  photos_imported: number;
  photos_skipped: number;
  tally: ReasonTally;
  /** Days this run started SMS entries on, and their next part: a day's further parts stay SMS entries. */
  smsDays: Map<string, number>;
}

interface ChunkWriter {
  ctx: AppContext;
  job: Pick<ImportJob, 'id' | 'attempts'>;
  owner: { userId: string; salt: string };
  reader: Pick<ImportReader, 'files'>;
}

/** The job was taken over by another instance: this one writes nothing more. */
export class ClaimLost extends Error {}

interface Planned {
  entry: ImportedEntry;
  fingerprint: string;
  /** The journal's entry it already is, or null when it comes in now. */
  existing: string | null;
  photos: ImportedPhoto[];
}

/**
 * Writes one batch of the file's entries: new entries with their photos, and photos the journal
 * lacks for entries it has (a Day One ZIP after its Journal.json). Photos are decoded and stored
 * before the transaction; the transaction inserts the rows and moves the job's progress forward
 * under its claim, so entries and progress commit together or not at all. The entries' voice
 * recordings are added after it (import/recordings.ts); until they are, the job notes where the
 * batch began (`audios_from`), so a restart reads it again for them.
 */
export async function writeChunk(w: ChunkWriter, entries: readonly ImportedEntry[], before: ImportProgressState): Promise<ImportProgressState> {
  const { ctx, owner } = w;
  const { userId } = owner;
  const state: ImportProgressState = { ...before, position: before.position + entries.length };
  const leave = (reason: ImportReason, example: string) => {
    state.tally.add(reason, example);
    if (ENTRY_REASONS.has(reason)) state.skipped += 1;
    else if (reason.startsWith('photo_')) state.photos_skipped += 1;
  };
  // A keyed hash of where an entry or photo came from (fingerprints.ts): it says nothing about it.
  const fingerprintsOf = fingerprinter(ctx, userId);
  const entryFps = new Map(entries.map((e) => [e, fingerprintsOf(e.origin)] as const));
  const photoFps = new Map(entries.flatMap((e) => e.photos.map((p) => [p, fingerprintsOf(p.origin)] as const)));
  const everyFp = [...entryFps.values(), ...photoFps.values()].flatMap((f) => [f.current, f.earlier]);
  const known = await repo.knownFingerprints(ctx.db, userId, everyFp);
  const knownAs = (f: { current: string; earlier: string }) => known.get(f.current) ?? known.get(f.earlier);
  const own = await repo.existingEntryIds(ctx.db, userId, entries.flatMap((e) => e.originalId ?? []));
  const ownPhotos = await repo.existingPhotoIds(ctx.db, userId, entries.flatMap((e) => e.photos.flatMap((p) => p.originalId ?? [])));

  const planned: Planned[] = [];
  for (const entry of entries) {
    if (entry.repeated) {
      leave('repeated', entryExample(entry));
      continue;
    }
    for (const item of entry.leftOut) leave(item.reason, `${item.example} (${entry.entryDate})`);
    const fingerprint = entryFps.get(entry)!.current;
    const existing = knownAs(entryFps.get(entry)!) ?? (entry.originalId && own.has(entry.originalId) ? entry.originalId : null);
    if (existing) leave('already_imported', entryExample(entry));
    const photos = entry.photos.filter((p) => !knownAs(photoFps.get(p)!) && !(p.originalId && ownPhotos.has(p.originalId)));
    for (const photo of photos.filter((p) => !p.path)) leave('photo_not_in_file', `${photo.fileName} (${entry.entryDate})`);
    planned.push({ entry, fingerprint, existing, photos: photos.filter((p) => p.path) });
  }

  const keyOf = (p: Planned) => p.existing ?? p.fingerprint;
  const totals = await repo.photoTotals(ctx.db, userId, planned.flatMap((p) => p.existing ?? []));
  const outcomes = await preparePhotos(
    w.reader,
    planned.flatMap((p) => p.photos.map((photo) => ({ key: keyOf(p), photo }))),
    new Map([...totals].map(([id, t]) => [id, { count: t.count, bytes: t.bytes }])),
  );

  const now = ctx.clock.now().toISOString();
  await writingPhotoFiles(ctx, async (written) => {
    const entryRows: Insertable<JournalEntriesTable>[] = [];
    const importRows: JournalImportsTable[] = [];
    const photoRows: JournalPhotoRow[] = [];
    const smsBefore = await repo.smsDays(ctx.db, userId, [...new Set(planned.filter((p) => !p.existing && p.entry.source === 'sms').map((p) => p.entry.entryDate))]);
    for (const plan of planned) {
      const { entry } = plan;
      const entryId = plan.existing ?? newId();
      const ready = plan.photos.flatMap((photo) => {
        const outcome = outcomes.get(photo)!;
        if ('left' in outcome) leave(outcome.left, `${photo.fileName} (${entry.entryDate})`);
        return 'prepared' in outcome ? [outcome] : [];
      });
      if (!plan.existing) {
        let { title, content } = entry;
        if (content === '' && ready.length === 0 && !entry.audios.some((a) => a.path)) {
          // A title alone is the entry's text; an entry with nothing at all is left out.
          if (!title) {
            leave('empty', entryExample(entry));
            continue;
          }
          [title, content] = [null, title];
        }
        // The journal holds one SMS entry a day (and its parts, in order): others come in as web entries.
        const sms = entry.source === 'sms' && (state.smsDays.has(entry.entryDate) || !smsBefore.has(entry.entryDate));
        const part = sms ? (state.smsDays.get(entry.entryDate) ?? 0) : 0;
        if (sms) state.smsDays.set(entry.entryDate, part + 1);
        entryRows.push({
          id: entryId,
          user_id: userId,
          ...encryptEntryText(ctx, userId, owner.salt, { title, content, tags: entry.tags }),
          source: sms ? 'sms' : 'web',
          sms_part: part,
          entry_date: entry.entryDate,
          word_count: countWords(content),
          created_at: entry.createdAt,
          updated_at: entry.updatedAt,
          time_zone: entry.timeZone,
        });
        importRows.push({ user_id: userId, fingerprint: plan.fingerprint, entry_id: entryId, imported_at: now });
        state.imported += 1;
      }
      let position = plan.existing ? (totals.get(plan.existing)?.next ?? 0) : 0;
      for (const { photo, prepared } of ready) {
        const row = await storePhotoFiles(ctx, owner, entryId, prepared, written);
        photoRows.push({ ...row, position: position++ });
        importRows.push({ user_id: userId, fingerprint: photoFps.get(photo)!.current, entry_id: entryId, imported_at: now });
        state.photos_imported += 1;
      }
    }
    const touched = [...new Set([...entryRows.map((row) => row.id), ...photoRows.map((row) => row.entry_id)])];
    await changeJournal(ctx, userId, async (trx, _revision, words) => {
      // A vault turned on during the import stops it here, so no readable entry lands in a vault
      // journal (the browser reads and seals a Vault user's import).
      if (touched.length) words.takeReadable(vaultMessages.errors.importVaultOn);
      await repo.insertEntries(trx, entryRows);
      await insertPhotos(trx, photoRows);
      await repo.recordImports(trx, importRows);
      const progress = {
        position: state.position,
        imported: state.imported,
        skipped: state.skipped,
        photos_imported: state.photos_imported,
        photos_skipped: state.photos_skipped,
        reasons: state.tally.encrypt(ctx, userId, owner.salt),
        audios_from: namesRecordings(entries) ? before.position : null,
      };
      if (!(await saveProgress(trx, w.job, progress, now))) throw new ClaimLost('The import was taken over');
      return { entryId: touched[0] ?? '', changedEntryIds: touched };
    });
  });
  return state;
}
