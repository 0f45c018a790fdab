import { entryCount, formatDay, formatTime, rangeLabel, sourceLabel, type ExportInput } from './format';

/** Plain text: a header, then each entry under its date, separated by a rule. */
export function renderText(input: ExportInput): string {
  const lines = [
    'JOURNAL',
    `Exported ${formatDay(input.today)} · ${entryCount(input.entries.length)} · ${rangeLabel(input.from, input.to)}`,
    '',
  ];
  for (const entry of input.entries) {
    lines.push('='.repeat(60), `${formatDay(entry.entry_date)} · ${formatTime(entry.created_at, input.timezone)} · ${sourceLabel(entry)}`);
    if (entry.title) lines.push(entry.title);
    if (entry.tags.length) lines.push(`Tags: ${entry.tags.join(', ')}`);
    lines.push('');
    if (entry.content) lines.push(entry.content, '');
    if (input.photos && entry.photos.length) lines.push(`Photos: ${entry.photos.map((p) => p.file_name).join(', ')}`, '');
  }
  return lines.join('\n');
}
