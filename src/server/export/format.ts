import type { ExportInput as ExportOf } from '../../shared/export-render';
import type { CachedEntry } from '../journal/cache';

/** What every export format is given here: the journal's cached entries, their photos with their stored paths. */
export type ExportInput = ExportOf<CachedEntry>;
