import { messages } from '../../shared/messages';
import { AppError, invalidInput } from '../errors';
import { looksLikeDayOne, parseDayOne } from './day-one';
import { looksLikeJotline, parseJotline } from './jotline-json';
import { looksLikeJrnl, parseJrnl } from './jrnl';
import { splitLongEntry } from './text';
import type { ParsedImport } from './types';
import { isZip, readDayOneZip } from './zip';

/** Upload limits: a ZIP (Day One with photos) may be large; JSON and text journals are small. */
export const IMPORT_LIMITS = { zipBytes: 100 * 1024 * 1024, textBytes: 20 * 1024 * 1024 };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw invalidInput(messages.importer.brokenJson);
  }
}

/**
 * Reads an import file of any supported format, told apart by its content (never by its name):
 * a Day One ZIP, Day One JSON, our JSON export, or a jrnl text journal. Entries over the entry
 * limit are split. Throws a 400 with a clear message for a broken or unknown file.
 */
export function parseImportFile(bytes: Buffer, timeZone: string): ParsedImport {
  const split = (parsed: ParsedImport): ParsedImport => {
    if (parsed.entries.length === 0) throw invalidInput(messages.importer.noEntries);
    // Our own export is taken as it was (it held those entries already); others are split to fit.
    return parsed.format === 'jotline-json' ? parsed : { ...parsed, entries: parsed.entries.flatMap((e) => splitLongEntry(e)) };
  };

  if (isZip(bytes)) {
    const archive = readDayOneZip(bytes);
    const entries = archive.journals.flatMap(({ text }) => {
      const json = parseJson(text);
      // Other JSON beside the journals (none in today's exports) is not a reason to refuse the file.
      return looksLikeDayOne(json) ? parseDayOne(json, timeZone, archive.photos) : [];
    });
    return split({ format: 'dayone-zip', entries });
  }
  if (bytes.length > IMPORT_LIMITS.textBytes) throw new AppError('PAYLOAD_TOO_LARGE', messages.importer.tooLarge);

  const text = bytes.toString('utf8');
  const start = text.replace(/^\uFEFF/, '').trimStart();
  // A jrnl header starts with "[" too: tell them apart first.
  if (looksLikeJrnl(text)) return split({ format: 'jrnl', entries: parseJrnl(text, timeZone) });
  if (start.startsWith('{') || start.startsWith('[')) {
    const json = parseJson(text);
    if (looksLikeDayOne(json)) return split({ format: 'dayone-json', entries: parseDayOne(json, timeZone) });
    if (looksLikeJotline(json)) return split({ format: 'jotline-json', entries: parseJotline(json) });
    throw invalidInput(messages.importer.unknownFormat);
  }
  throw invalidInput(messages.importer.unknownFormat);
}
