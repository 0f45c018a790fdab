import { parentPort } from 'node:worker_threads';
import { AppError } from '../../errors';
import { readImport, type ImportReading } from '../parse';
import type { ImportedEntry } from '../../../shared/import/types';
import type { ByteSource } from '../zip';
import type { FromReader, StartReading, ToReader } from './messages';

// Runs inside a worker thread: reads and parses an import file off the server's event loop, then
// hands its entries over a batch at a time, and the photos and recordings a batch needs when asked.

/** A batch ends at this many entries, or at this many photos, or recordings, to unpack. */
const BATCH_ENTRIES = 100;
const BATCH_PHOTOS = 20;
const BATCH_AUDIOS = 20;
/** Parts of the upload kept at hand (a ZIP is read in jumps: its directory, then file by file). */
const PARTS_KEPT = 4;

const port = parentPort!;
const send = (message: FromReader, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const asking = new Map<number, (bytes: Buffer | null) => void>();
const kept = new Map<number, Promise<Buffer>>();

/** A part of the upload, asked of the server (which reads and decrypts it) unless kept. */
function part(index: number): Promise<Buffer> {
  let pending = kept.get(index);
  if (pending) {
    kept.delete(index);
  } else {
    pending = new Promise<Buffer | null>((resolve) => {
      asking.set(index, resolve);
      send({ type: 'part', index });
    }).then((bytes) => {
      if (!bytes) throw new Error(`Part ${index} of the upload could not be read`);
      return bytes;
    });
  }
  kept.set(index, pending);
  if (kept.size > PARTS_KEPT) kept.delete(kept.keys().next().value!);
  return pending;
}

function sourceOf(start: StartReading): ByteSource {
  return {
    size: start.size,
    async read(from, to) {
      const pieces: Buffer[] = [];
      for (let at = from; at < to; ) {
        const index = Math.floor(at / start.partBytes);
        const offset = at - index * start.partBytes;
        const bytes = await part(index);
        const piece = bytes.subarray(offset, Math.min(bytes.length, offset + (to - at)));
        if (piece.length === 0) break;
        pieces.push(piece);
        at += piece.length;
      }
      return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
    },
  };
}

let reading: Promise<ImportReading> | undefined;
let waiting: ImportedEntry[] = [];

function fail(error: unknown): void {
  const userFacing = error instanceof AppError;
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error), userFacing });
}

function nextBatch(): void {
  const entries: ImportedEntry[] = [];
  let photos = 0;
  let audios = 0;
  while (waiting.length && entries.length < BATCH_ENTRIES && photos < BATCH_PHOTOS && audios < BATCH_AUDIOS) {
    const entry = waiting.shift()!;
    photos += entry.photos.filter((p) => p.path).length;
    audios += entry.audios.filter((a) => a.path).length;
    entries.push(entry);
  }
  send({ type: 'batch', entries, done: waiting.length === 0 });
}

async function sendFiles(paths: string[], maxBytes: number): Promise<void> {
  const { readFile, fileSize } = await reading!;
  const files: Array<{ path: string; bytes: Uint8Array | null; tooLarge?: boolean }> = [];
  for (const path of paths) {
    if (fileSize(path) > maxBytes) {
      files.push({ path, bytes: null, tooLarge: true });
      continue;
    }
    // A file that cannot be unpacked is counted by the server, not a reason to stop.
    const bytes = await readFile(path).catch(() => null);
    files.push({ path, bytes: bytes && new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)) });
  }
  send({ type: 'files', files }, files.flatMap((f) => (f.bytes ? [f.bytes.buffer as ArrayBuffer] : [])));
}

port.on('message', (message: ToReader) => {
  if (message.type === 'part') {
    const resolve = asking.get(message.index);
    asking.delete(message.index);
    resolve?.(message.bytes && Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
  } else if (message.type === 'start') {
    reading = readImport(sourceOf(message), { timeZone: message.timeZone, now: new Date(message.now) });
    reading.then(
      (read) => {
        waiting = read.entries.slice(message.skip);
        send({ type: 'opened', format: read.format, total: read.entries.length });
      },
      fail,
    );
  } else if (message.type === 'next') {
    nextBatch();
  } else {
    sendFiles(message.paths, message.maxBytes).catch(fail);
  }
});
