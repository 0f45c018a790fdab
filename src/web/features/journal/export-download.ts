import type { ExportFormat } from '../../../shared/journal';
import { downloadFile } from '../../api/download';
import { todayIso } from './dates';
import { isVaultJournal, vaultJournalCode } from './vault-mode';

export { fileNameFrom } from '../../api/download';

export interface ExportRequest {
  format: ExportFormat;
  /** YYYY-MM-DD or ''. */
  from: string;
  to: string;
  /** PDF only. */
  photos: boolean;
}

/** GET /api/export?format=&from=&to=&photos= */
function exportPath(request: ExportRequest): string {
  const params = new URLSearchParams({ format: request.format });
  if (request.from) params.set('from', request.from);
  if (request.to) params.set('to', request.to);
  params.set('photos', String(request.format === 'pdf' && request.photos));
  return `/api/export?${params.toString()}`;
}

/** Downloads the export with the session's token and saves it under the server's name. */
export async function downloadExport(request: ExportRequest): Promise<string> {
  // A Vault journal is exported in the browser, where it is unlocked (the server cannot read it).
  if (isVaultJournal()) return (await vaultJournalCode.load()).exportInBrowser(request);
  return downloadFile(exportPath(request), { fileName: (serverName) => serverName ?? `journal-export-${todayIso()}.${request.format}` });
}
