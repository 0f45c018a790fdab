import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import { renderPdf } from '../../../shared/pdf';
import { readPdfFont } from '../pdf-fonts';
import type { FromWorker, ToWorker } from './messages';

// Runs inside a worker thread: renders one PDF at a time with the journal's one renderer
// (src/shared/pdf.ts, which a Vault journal's browser runs too), streaming the bytes back as the
// pages are made. Photos are read (and decrypted) by the server on request, so the worker holds no
// keys and no storage credentials.

const port = parentPort!;
const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const BATCH_BYTES = 64 * 1024;
const waitingPhotos = new Map<number, (bytes: Uint8Array | null) => void>();
let nextRequest = 0;

/** A photo's bytes, asked of the server. */
function photoFromServer(jobId: number, key: string): Promise<Uint8Array | null> {
  const requestId = ++nextRequest;
  return new Promise<Uint8Array | null>((resolve) => {
    waitingPhotos.set(requestId, resolve);
    send({ type: 'photo', jobId, requestId, key });
  });
}

/** A photo as a JPEG on white, at most `maxPixels` on a side, upright; null if it cannot be read. */
async function reencode(bytes: Uint8Array, maxPixels: number): Promise<Uint8Array | null> {
  try {
    return await sharp(bytes)
      .rotate()
      .resize({ width: maxPixels, height: maxPixels, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer();
  } catch {
    return null;
  }
}

async function render(jobId: number, input: Extract<ToWorker, { type: 'render' }>['input']): Promise<void> {
  // The renderer writes in pieces of every size: send them in batches of about 64 KB.
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = () => {
    if (!pendingBytes) return;
    const bytes = new Uint8Array(Buffer.concat(pending, pendingBytes));
    pending = [];
    pendingBytes = 0;
    send({ type: 'chunk', jobId, bytes }, [bytes.buffer as ArrayBuffer]);
  };
  await renderPdf(input, { font: readPdfFont, photo: (photo) => photoFromServer(jobId, photo.file_path), reencode }, (bytes) => {
    pending.push(bytes);
    pendingBytes += bytes.length;
    if (pendingBytes >= BATCH_BYTES) flush();
  });
  flush();
  send({ type: 'end', jobId });
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
