import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { ExportInput } from '../format';
import type { FromWorker, ToWorker } from './messages';

interface PdfJob {
  input: ExportInput;
  /** A photo's bytes as stored for this user (decrypted), or null; only the job's own photos are asked for. */
  readPhoto(key: string): Promise<Buffer | null>;
}

interface Running {
  jobId: number;
  job: PdfJob;
  out: Readable;
  timer: NodeJS.Timeout;
}

/** A job's output the reader has not taken yet; past this the worker's next photo waits. */
const MAX_UNREAD_BYTES = 16 * 1024 * 1024;

interface Slot {
  worker: Worker;
  running?: Running;
  idleTimer?: NodeJS.Timeout;
}

/** A PDF that takes longer than this is abandoned (its worker is replaced). */
const PDF_TIMEOUT_MS = 5 * 60_000;
/** An idle worker is let go after this long; the next PDF starts a new one. */
const IDLE_MS = 60_000;

/**
 * Makes exports in worker threads so they never block the server's event loop (PDFs with the
 * journal's renderer, src/shared/pdf.ts; ZIPs with yazl: the worker at `workerUrl`): `size`
 * workers, at most `maxQueued` exports waiting for one. Each export streams out as it is written; a slow reader holds up the worker's photos.
 */
export class ExportWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Array<{ jobId: number; job: PdfJob; out: Readable }> = [];
  private nextJob = 0;
  private readonly readers = new Map<Readable, () => void>();

  constructor(
    readonly size = 2,
    readonly maxQueued = 8,
    private readonly workerUrl = new URL('./worker.mjs', import.meta.url),
    /** An export that takes longer is abandoned (its worker replaced). */
    private readonly timeoutMs = PDF_TIMEOUT_MS,
  ) {}

  /** Whether render() would take another PDF now (a free worker or a place in the queue). */
  hasRoom(): boolean {
    return this.slots.filter((s) => s.running).length < this.size || this.queue.length < this.maxQueued;
  }

  /** Starts (or queues) a PDF; the stream carries it. Call hasRoom() first: a full pool throws. */
  render(job: PdfJob): Readable {
    if (!this.hasRoom()) throw new Error('The PDF queue is full');
    const jobId = ++this.nextJob;
    const out: Readable = new Readable({ read: () => this.readers.get(out)?.() });
    // The reader went away (download cancelled): stop the work too.
    out.once('close', () => this.abandon(jobId));
    this.queue.push({ jobId, job, out });
    this.startNext();
    return out;
  }

  /** Ends every worker (waiting PDFs fail). */
  async close(): Promise<void> {
    for (const waiting of this.queue.splice(0)) waiting.out.destroy(new Error('The server is shutting down'));
    await Promise.all(this.slots.splice(0).map((slot) => this.retire(slot, new Error('The server is shutting down'))));
  }

  private startNext(): void {
    while (this.queue.length) {
      const slot = this.slots.find((s) => !s.running) ?? (this.slots.length < this.size ? this.spawn() : undefined);
      if (!slot) return;
      const next = this.queue.shift()!;
      if (next.out.destroyed) continue;
      clearTimeout(slot.idleTimer);
      const timer = setTimeout(() => void this.retire(slot, new Error('The export took too long to make')).then(() => this.startNext()), this.timeoutMs);
      timer.unref();
      slot.running = { ...next, timer };
      slot.worker.postMessage({ type: 'render', jobId: next.jobId, input: next.job.input } satisfies ToWorker);
    }
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(this.workerUrl) };
    slot.worker.unref();
    slot.worker.on('message', (message: FromWorker) => void this.onMessage(slot, message));
    const lost = (error: Error) => {
      if (!this.slots.includes(slot)) return;
      this.slots.splice(this.slots.indexOf(slot), 1);
      this.finish(slot, error);
      this.startNext();
    };
    slot.worker.on('error', lost);
    slot.worker.on('exit', (code) => lost(new Error(`The PDF worker stopped (exit code ${code})`)));
    this.slots.push(slot);
    return slot;
  }

  private async onMessage(slot: Slot, message: FromWorker): Promise<void> {
    const running = slot.running;
    if (!running || running.jobId !== message.jobId) return;
    if (message.type === 'chunk') running.out.push(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
    else if (message.type === 'end') this.finish(slot);
    else if (message.type === 'error') this.finish(slot, new Error(message.message));
    else {
      // The reader is far behind: the next photo waits until it catches up.
      while (running.out.readableLength > MAX_UNREAD_BYTES && !running.out.destroyed) {
        await new Promise<void>((resolve) => this.readers.set(running.out, resolve));
        this.readers.delete(running.out);
      }
      const allowed = running.job.input.entries.some((e) => e.photos.some((p) => p.file_path === message.key) || e.recordings.some((r) => r.file_path === message.key));
      const bytes = allowed ? await running.job.readPhoto(message.key).catch(() => null) : null;
      if (slot.running !== running) return;
      slot.worker.postMessage({ type: 'photo', jobId: message.jobId, requestId: message.requestId, bytes: bytes && new Uint8Array(bytes) } satisfies ToWorker);
    }
  }

  /** The slot's PDF is done (or failed): close its stream and take the next one. */
  private finish(slot: Slot, error?: Error): void {
    const running = slot.running;
    if (!running) return;
    slot.running = undefined;
    clearTimeout(running.timer);
    if (error) running.out.destroy(error);
    else running.out.push(null);
    this.readers.get(running.out)?.();
    if (this.slots.includes(slot)) {
      slot.idleTimer = setTimeout(() => {
        if (!slot.running && this.slots.includes(slot)) void this.retire(slot);
      }, IDLE_MS);
      slot.idleTimer.unref();
    }
    this.startNext();
  }

  private abandon(jobId: number): void {
    const waiting = this.queue.findIndex((q) => q.jobId === jobId);
    if (waiting >= 0) this.queue.splice(waiting, 1);
    const slot = this.slots.find((s) => s.running?.jobId === jobId && !s.running.out.readableEnded);
    // A worker cannot be interrupted mid-render; replace it.
    if (slot) void this.retire(slot).then(() => this.startNext());
  }

  private async retire(slot: Slot, error?: Error): Promise<void> {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    clearTimeout(slot.idleTimer);
    this.finish(slot, error ?? new Error('The PDF was cancelled'));
    await slot.worker.terminate();
  }
}

/** The server's PDF workers: two, with up to 32 exports waiting (a short PDF takes a few tens of ms). */
export const pdfWorkers = new ExportWorkerPool(2, 32);

/** The ZIP workers (export/zip/): two, with up to 8 waiting (a ZIP carries every photo). */
// A download of every photo to a slow connection may take long: it is paced by the reader.
export const zipWorkers = new ExportWorkerPool(2, 8, new URL('../zip/worker.mjs', import.meta.url), 2 * 3_600_000);
