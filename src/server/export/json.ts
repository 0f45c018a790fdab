import { presentEntryFields } from '../journal/present';
import { isoInZone, type ExportInput } from './format';

/**
 * JSON: `{exported_at, timezone, entries: [...]}`, each entry as the API shows it (instants in UTC),
 * with its times also in the user's timezone (`created_at_local`), and photos as names and sizes.
 */
export function renderJson(input: ExportInput): string {
  return JSON.stringify(
    {
      exported_at: input.exportedAt.toISOString(),
      timezone: input.timezone,
      entries: input.entries.map((entry) => ({
        ...presentEntryFields(entry),
        created_at_local: isoInZone(entry.created_at, input.timezone),
        updated_at_local: isoInZone(entry.updated_at, input.timezone),
        ...(input.photos && {
          photos: entry.photos.map((p) => ({ file_name: p.file_name, file_size: Number(p.file_size), mime_type: p.mime_type })),
        }),
      })),
    },
    null,
    2,
  );
}
