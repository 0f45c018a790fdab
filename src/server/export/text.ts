import { entryCount, entryMeta, exportedLabel, formatDay, rangeLabel, zoneLabel, type ExportInput } from './format';

/** Plain text: a header, then each entry under its date, separated by a rule. */
export function renderText(input: ExportInput): string {
  const lines = [
    'JOURNAL',
    `${exportedLabel(input)} · ${entryCount(input.entries.length)} · ${rangeLabel(input.from, input.to)}`,
    zoneLabel(input.timezone),
    '',
  ];
  for (const entry of input.entries) {
    lines.push('='.repeat(60), `${formatDay(entry.entry_date)} · ${entryMeta(entry, input.timezone)}`);
    if (entry.title) lines.push(entry.title);
    if (entry.tags.length) lines.push(`Tags: ${entry.tags.join(', ')}`);
    lines.push('');
    if (entry.content) lines.push(entry.content, '');
    if (input.photos && entry.photos.length) lines.push(`Photos: ${entry.photos.map((p) => p.file_name).join(', ')}`, '');
  }
  return lines.join('\n');
}
