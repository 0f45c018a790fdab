import type { Readable } from 'node:stream';
import type { AppContext } from '../../context';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A photo's bytes for a PDF being made in a worker, or null when it cannot be read. */
export async function readPhotoForExport(ctx: AppContext, key: string): Promise<Buffer | null> {
  const stored = await ctx.storage.get(key);
  return stored ? readAll(stored.stream) : null;
}
