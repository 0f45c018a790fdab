import { Readable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import type { PhotoStorage } from '../../providers/storage/index';
import { newPdfDocument, renderPdf } from '../pdf';
import type { FromWorker, ToWorker } from './messages';

// Runs inside a worker thread: renders one PDF at a time with the same renderPdf the server used to
// run on its event loop, streaming the bytes back. Photos are read (and decrypted) by the server on
// request, so the worker holds no keys and no storage credentials.

const port = parentPort!;
const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const BATCH_BYTES = 64 * 1024;
const waitingPhotos = new Map<number, (bytes: Uint8Array | null) => void>();
let nextRequest = 0;

/** Photo storage as renderPdf sees it: each read is a request to the server. */
function photosFromServer(jobId: number): PhotoStorage {
  return {
    async get(key) {
      const requestId = ++nextRequest;
      const bytes = await new Promise<Uint8Array | null>((resolve) => {
        waitingPhotos.set(requestId, resolve);
        send({ type: 'photo', jobId, requestId, key });
      });
      if (!bytes) return null;
      return { stream: Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]), contentType: 'application/octet-stream', size: bytes.byteLength };
    },
    put: () => Promise.reject(new Error('The PDF worker cannot store photos')),
    replace: () => Promise.reject(new Error('The PDF worker cannot store photos')),
    delete: () => Promise.reject(new Error('The PDF worker cannot delete photos')),
  };
}

function render(jobId: number, input: Extract<ToWorker, { type: 'render' }>['input']) {
  const doc = newPdfDocument();
  // pdfkit writes many small pieces: send them in batches of about 64 KB, not one message each.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = () => {
    if (!pendingBytes) return;
    const bytes = new Uint8Array(Buffer.concat(pending, pendingBytes));
    pending = [];
    pendingBytes = 0;
    send({ type: 'chunk', jobId, bytes }, [bytes.buffer as ArrayBuffer]);
  };
  doc.on('data', (chunk: Buffer) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= BATCH_BYTES) flush();
  });
  doc.on('end', () => {
    flush();
    send({ type: 'end', jobId });
  });
  doc.on('error', (error: Error) => send({ type: 'error', jobId, message: error.message }));
  renderPdf(doc, input, photosFromServer(jobId)).catch((error: unknown) => {
    send({ type: 'error', jobId, message: error instanceof Error ? error.message : String(error) });
    doc.destroy();
  });
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'render') render(message.jobId, message.input);
  else {
    const resolve = waitingPhotos.get(message.requestId);
    waitingPhotos.delete(message.requestId);
    resolve?.(message.bytes);
  }
});
