import type { ExportFormat } from '../../../shared/journal';
import { todayIso } from './dates';
import { authorizedFetch } from './http';

export interface ExportRequest {
  format: ExportFormat;
  /** YYYY-MM-DD or ''. */
  from: string;
  to: string;
  /** PDF only. */
  photos: boolean;
}

/** GET /api/export?format=&from=&to=&photos= */
export function exportPath(request: ExportRequest): string {
  const params = new URLSearchParams({ format: request.format });
  if (request.from) params.set('from', request.from);
  if (request.to) params.set('to', request.to);
  params.set('photos', String(request.format === 'pdf' && request.photos));
  return `/api/export?${params.toString()}`;
}

/** The name the server gave the file (filename*= first, then filename=), if any. */
export function fileNameFrom(contentDisposition: string | null): string | null {
  if (!contentDisposition) return null;
  const encoded = /filename\*\s*=\s*(?:UTF-8'[^']*')?("?)([^";]+)\1/i.exec(contentDisposition)?.[2];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // fall back to the plain name
    }
  }
  const plain = /filename\s*=\s*("?)([^";]+)\1/i.exec(contentDisposition)?.[2];
  return plain?.trim() || null;
}

/** Downloads the export with the session's token (a plain link could not send it) and saves it. */
export async function downloadExport(request: ExportRequest): Promise<string> {
  const response = await authorizedFetch(exportPath(request));
  const blob = await response.blob();
  const fileName = fileNameFrom(response.headers.get('content-disposition')) ?? `journal-export-${todayIso()}.${request.format}`;
  saveBlob(blob, fileName);
  return fileName;
}

function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL after click() returns; let go of it a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
