import { Worker } from 'node:worker_threads';
import { messages } from '../../../shared/messages';
import type { AppContext } from '../../context';
import { AppError, invalidInput } from '../../errors';
import { PART_BYTES, readPart, type UploadRef } from '../stored-upload';
import type { ImportedEntry, ImportFormat } from '../../../shared/import/types';
import type { FromReader, ToReader } from './messages';

/** The server's side of an import reader thread (reader/thread.ts). One request at a time. */
export interface ImportReader {
  opened(): Promise<{ format: ImportFormat; total: number }>;
  next(): Promise<{ entries: ImportedEntry[]; done: boolean }>;
  /** Unpacked files by path; null for one that could not be unpacked, 'too-large' past `maxBytes`. */
  files(paths: string[], maxBytes: number): Promise<Map<string, Buffer | null | 'too-large'>>;
  close(): Promise<void>;
}

const WORKER_URL = new URL('./worker.mjs', import.meta.url);
// A file that parses into more than this is refused, rather than let it grow the server's memory.
const READER_HEAP_MB = 1024;

type Reply = Exclude<FromReader, { type: 'part' } | { type: 'failed' }>;

export function startReader(ctx: AppContext, ref: UploadRef, start: { size: number; skip: number; timeZone: string }): ImportReader {
  const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB } });
  worker.unref();
  const post = (message: ToReader, transfer: ArrayBuffer[] = []) => worker.postMessage(message, transfer);
  let waiting: { type: Reply['type']; resolve(reply: Reply): void; reject(error: Error): void } | null = null;
  let failure: Error | null = null;

  const stop = (error: Error) => {
    failure ??= error;
    waiting?.reject(failure);
    waiting = null;
  };
  worker.on('message', (message: FromReader) => {
    if (message.type === 'part') {
      readPart(ctx, ref, message.index).then(
        (bytes) => {
          // Handed over, not copied, when the bytes have their memory to themselves.
          const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes);
          post({ type: 'part', index: message.index, bytes: own }, [own.buffer as ArrayBuffer]);
        },
        () => post({ type: 'part', index: message.index, bytes: null }),
      );
    } else if (message.type === 'failed') {
      stop(message.userFacing ? invalidInput(message.message) : new Error(message.message));
    } else if (waiting?.type === message.type) {
      const { resolve } = waiting;
      waiting = null;
      resolve(message);
    }
  });
  worker.on('error', (error: Error & { code?: string }) =>
    stop(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new AppError('PAYLOAD_TOO_LARGE', messages.importer.tooLarge) : error),
  );
  worker.on('exit', (code) => stop(new Error(`The import reader stopped (exit code ${code})`)));

  const ask = <T extends Reply['type']>(type: T, message?: ToReader): Promise<Extract<Reply, { type: T }>> =>
    new Promise((resolve, reject) => {
      if (failure) return reject(failure);
      waiting = { type, resolve: resolve as (reply: Reply) => void, reject };
      if (message) post(message);
    });

  const opened = ask('opened', { type: 'start', size: start.size, partBytes: PART_BYTES, skip: start.skip, timeZone: start.timeZone, now: ctx.clock.now().toISOString() });
  // Until someone waits on it, a failure is kept for the next request.
  opened.catch(() => undefined);

  return {
    opened: async () => {
      const { format, total } = await opened;
      return { format, total };
    },
    next: async () => {
      const { entries, done } = await ask('batch', { type: 'next' });
      return { entries, done };
    },
    files: async (paths, maxBytes) => {
      const { files } = await ask('files', { type: 'files', paths, maxBytes });
      return new Map(files.map((f) => [f.path, f.tooLarge ? 'too-large' : f.bytes && Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength)]));
    },
    close: async () => {
      failure ??= new Error('The import reader was closed');
      await worker.terminate();
    },
  };
}
