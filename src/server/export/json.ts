import { presentEntryFields } from '../journal/present';
import type { ExportInput } from './format';

/** JSON: `{exported_at, entries: [...]}`, each entry as the API shows it (photos as names and sizes). */
export function renderJson(input: ExportInput): string {
  return JSON.stringify(
    {
      exported_at: input.exportedAt.toISOString(),
      entries: input.entries.map((entry) => ({
        ...presentEntryFields(entry),
        ...(input.photos && {
          photos: entry.photos.map((p) => ({ file_name: p.file_name, file_size: Number(p.file_size), mime_type: p.mime_type })),
        }),
      })),
    },
    null,
    2,
  );
}
