import type { ExportInput } from './format';

/** JSON: `{exported_at, entries: [...]}`, each entry as the API shows it (photos as names and sizes). */
export function renderJson(input: ExportInput): string {
  return JSON.stringify(
    {
      exported_at: input.exportedAt.toISOString(),
      entries: input.entries.map((entry) => ({
        id: entry.id,
        title: entry.title,
        content: entry.content,
        source: entry.source,
        entry_date: entry.entry_date,
        created_at: entry.created_at,
        updated_at: entry.updated_at,
        tags: entry.tags,
        word_count: entry.word_count,
        ...(input.photos && {
          photos: entry.photos.map((p) => ({ file_name: p.file_name, file_size: Number(p.file_size), mime_type: p.mime_type })),
        }),
      })),
    },
    null,
    2,
  );
}
