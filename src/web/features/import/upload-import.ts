import { IMPORT_MAX_TEXT_BYTES, IMPORT_MAX_ZIP_BYTES } from '../../../shared/import';
import { ApiError, apiErrorFrom, NetworkError } from '../../api/errors';
import { refreshSession } from '../../api/client';
import { sessionStore } from '../../api/session-store';

/** POST /api/import's answer (202): the import runs on the server from here. */
interface ImportStarted {
  import_id: string;
}

/** Checked here first, so a file over the server's limit is refused at once. */
export function tooLargeToImport(file: File): boolean {
  const zip = /\.zip$/i.test(file.name) || file.type === 'application/zip' || file.type === 'application/x-zip-compressed';
  return file.size > (zip ? IMPORT_MAX_ZIP_BYTES : IMPORT_MAX_TEXT_BYTES);
}

interface UploadOptions {
  /** Share of the file sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

function post(file: File, token: string | undefined, options: UploadOptions): Promise<ImportStarted> {
  return new Promise((resolve, reject) => {
    // XMLHttpRequest, not fetch: only it reports upload progress.
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/import');
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as ImportStarted);
      else reject(apiErrorFrom(xhr.status, body));
    };
    xhr.onerror = () => reject(new NetworkError());
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** Uploads an export file for import with the session's token, refreshing it once on a 401. */
export async function uploadImport(file: File, options: UploadOptions = {}): Promise<ImportStarted> {
  const token = sessionStore.get()?.access_token;
  try {
    return await post(file, token, options);
  } catch (error) {
    if (!(token && error instanceof ApiError && error.status === 401)) throw error;
    const refreshed = await refreshSession(token);
    if (!refreshed) throw error;
    options.onProgress?.(0);
    return post(file, refreshed.access_token, options);
  }
}
