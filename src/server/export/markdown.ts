import { entryCount, entryMeta, exportedLabel, formatDay, rangeLabel, zoneLabel, type ExportInput } from './format';

// Keep journal text from turning into headings or lists when it starts a line with markup;
// single line breaks stay line breaks (two trailing spaces), blank lines stay paragraphs.
const escapeLineStarts = (text: string) => text.replace(/^([#>*+-]|\d+\.)(\s)/gm, '\\$1$2');

/** Markdown: a level-2 heading per entry (its date and title). */
export function renderMarkdown(input: ExportInput): string {
  const parts = [`# Journal`, '', `*${exportedLabel(input)} · ${entryCount(input.entries.length)} · ${rangeLabel(input.from, input.to)}*  `, `*${zoneLabel(input.timezone)}*`, ''];
  for (const entry of input.entries) {
    parts.push(`## ${formatDay(entry.entry_date)}${entry.title ? ` — ${entry.title}` : ''}`, '');
    parts.push(`*${entryMeta(entry, input.timezone)}*`, '');
    if (entry.tags.length) parts.push(`Tags: ${entry.tags.map((t) => `\`${t.replace(/`/g, "'")}\``).join(', ')}`, '');
    if (entry.content) parts.push(escapeLineStarts(entry.content).replace(/([^\n])\n(?!\n)/g, '$1  \n'), '');
    if (input.photos && entry.photos.length) parts.push(`Photos: ${entry.photos.map((p) => p.file_name).join(', ')}`, '');
  }
  return parts.join('\n');
}
