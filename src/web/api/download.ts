import { authorizedFetch } from '../features/journal/http';

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

interface DownloadOptions {
  /** Request headers (e.g. Accept). */
  headers?: Record<string, string>;
  /** The name to save under, given the name the server sent (null when it sent none). */
  fileName: (serverName: string | null) => string;
}

/**
 * Downloads a file from the API with the session's token (a plain link could not send it) and
 * saves it through a temporary <a download>. Answers with the name it was saved under.
 */
export async function downloadFile(path: string, options: DownloadOptions): Promise<string> {
  const response = await authorizedFetch(path, options.headers ? { headers: options.headers } : undefined);
  const blob = await response.blob();
  const fileName = options.fileName(fileNameFrom(response.headers.get('content-disposition')));
  saveBlob(blob, fileName);
  return fileName;
}

/** Saves a blob made in the browser under a file name, through a temporary <a download>. */
export function saveBlob(blob: Blob, fileName: string) {
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
