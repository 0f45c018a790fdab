import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import yazl from 'yazl';
import type { FromWorker, ToWorker } from '../pdf-worker/messages';
import { audioFormat, journalJson, photoType, type ZippedAudio, type ZippedPhoto } from '../../../shared/day-one-export';

// Runs inside a worker thread: writes the journal's ZIP (photos/ first, then Journal.json, which
// names them by md5) and streams its bytes back. Photos are read (and decrypted) by the server on
// request, one at a time, so the worker holds no keys and at most one photo.

const port = parentPort!;
const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const BATCH_BYTES = 256 * 1024;
const waitingPhotos = new Map<number, (bytes: Uint8Array | null) => void>();
let nextRequest = 0;

function photo(jobId: number, key: string): Promise<Buffer | null> {
  const requestId = ++nextRequest;
  return new Promise<Uint8Array | null>((resolve) => {
    waitingPhotos.set(requestId, resolve);
    send({ type: 'photo', jobId, requestId, key });
  }).then((bytes) => bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

async function render(jobId: number, input: Extract<ToWorker, { type: 'render' }>['input']): Promise<void> {
  const zip = new yazl.ZipFile();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = () => {
    if (!pendingBytes) return;
    const bytes = new Uint8Array(Buffer.concat(pending, pendingBytes));
    pending = [];
    pendingBytes = 0;
    send({ type: 'chunk', jobId, bytes }, [bytes.buffer as ArrayBuffer]);
  };
  zip.outputStream.on('data', (chunk: Buffer) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= BATCH_BYTES) flush();
  });
  zip.outputStream.on('end', () => {
    flush();
    send({ type: 'end', jobId });
  });

  const zipped = new Map<string, ZippedPhoto>();
  const written = new Set<string>();
  for (const entry of input.entries) {
    for (const row of entry.photos) {
      const bytes = await photo(jobId, row.file_path);
      // A photo whose file is gone is left out of the ZIP and of Journal.json.
      if (!bytes) continue;
      const file = { md5: createHash('md5').update(bytes).digest('hex'), type: photoType(row.mime_type), size: bytes.length };
      zipped.set(row.id, file);
      const name = `photos/${file.md5}.${file.type}`;
      if (written.has(name)) continue;
      written.add(name);
      // Photos are compressed already.
      zip.addBuffer(bytes, name, { compress: false, mtime: new Date(row.created_at) });
    }
  }
  // Recordings go in audios/MD5.FORMAT, as Day One keeps them. A sealed one (a vault user's) cannot
  // be opened here and is left out.
  const audios = new Map<string, ZippedAudio>();
  for (const entry of input.entries) {
    for (const row of entry.recordings) {
      if (Number(row.sealed)) continue;
      const bytes = await photo(jobId, row.file_path);
      if (!bytes) continue;
      const file = { md5: createHash('md5').update(bytes).digest('hex'), format: audioFormat(row.mime_type), size: bytes.length };
      audios.set(row.id, file);
      const name = `audios/${file.md5}.${file.format}`;
      if (written.has(name)) continue;
      written.add(name);
      zip.addBuffer(bytes, name, { compress: false, mtime: new Date(row.created_at) });
    }
  }
  zip.addBuffer(Buffer.from(journalJson(input.entries, input.timezone, zipped, audios)), 'Journal.json', { compress: true, mtime: input.exportedAt });
  zip.end();
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'render') {
    render(message.jobId, message.input).catch((error: unknown) => send({ type: 'error', jobId: message.jobId, message: error instanceof Error ? error.message : String(error) }));
  } else {
    const resolve = waitingPhotos.get(message.requestId);
    waitingPhotos.delete(message.requestId);
    resolve?.(message.bytes);
  }
});
