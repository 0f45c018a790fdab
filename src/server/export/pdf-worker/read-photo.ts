import type { AppContext } from '../../context';
import { readPhotoFile } from '../../at-rest/photo-files';

/** A photo's bytes (decrypted) for a PDF being made in a worker, or null when it cannot be read. */
export async function readPhotoForExport(ctx: AppContext, key: string): Promise<Buffer | null> {
  return (await readPhotoFile(ctx, key))?.bytes ?? null;
}
