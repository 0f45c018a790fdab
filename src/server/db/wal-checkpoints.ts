import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** How often the worker copies the write-ahead log back into the database file. */
export const CHECKPOINT_EVERY_MS = 250;
/**
 * The app's own connection checkpoints only past this many pages of log (about 40 MB), should the
 * worker fall behind; SQLite's default of 1,000 pages applies again if the worker stops.
 */
const BACKSTOP_PAGES = 10_000;
const SQLITE_DEFAULT_PAGES = 1_000;
/** A log that grew in a burst is cut back to this size once it has been checkpointed. */
const KEPT_LOG_BYTES = 32 * 1024 * 1024;

/** What one checkpoint did, as SQLite's `wal_checkpoint` reports it. */
export interface CheckpointResult {
  /** Pages in the log. */
  log: number;
  /** Of those, pages now copied into the database file. */
  checkpointed: number;
}

export interface WalCheckpoints {
  /** Runs a checkpoint now (as the worker does on its own every CHECKPOINT_EVERY_MS); tests and benchmarks. */
  now(): Promise<CheckpointResult>;
  /** Closes the worker's connection and ends the thread; the app's connection checkpoints itself again. */
  stop(): Promise<void>;
}

// Plain JavaScript, so the thread starts the same under the TypeScript loader, in tests and in a
// build. The driver's path comes from the app: a worker started from a string resolves modules
// from the working directory.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 1000');
const checkpoint = () => {
  const [result] = db.pragma('wal_checkpoint(PASSIVE)');
  return { log: result.log, checkpointed: result.checkpointed };
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message.type === 'now') parentPort.postMessage({ id: message.id, result: checkpoint() });
  if (message.type === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

/**
 * Copies SQLite's write-ahead log back into the database file from a thread of its own.
 *
 * A commit only appends pages to the log; every 1,000 pages SQLite's checkpoint copies them into
 * the database file and flushes it to disk, synchronously, in whichever connection committed. With
 * the app's one connection that was the event loop: a third of the time a webhook spent recording
 * its text went on checkpoints. Here a worker thread with its own connection runs a passive
 * checkpoint every CHECKPOINT_EVERY_MS, which never waits for the app's readers or writer and
 * never makes them wait; the app's connection keeps a far-off checkpoint of its own as a backstop.
 * Nothing changes about durability: a commit is in the log before it returns, as before.
 */
export function checkpointInBackground(sqlite: SQLite.Database, file: string): WalCheckpoints {
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  sqlite.pragma(`journal_size_limit = ${KEPT_LOG_BYTES}`);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file, everyMs: CHECKPOINT_EVERY_MS },
  });
  // The thread keeps the process alive only while someone awaits it (a checkpoint asked for, or
  // the thread's end on close): otherwise a process with nothing else to do exits in the middle of
  // an `await database.close()`, with code 13 and its WAL left behind.
  worker.unref();
  const waiting = new Map<number, { resolve: (result: CheckpointResult) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let stopped: Promise<void> | undefined;
  let failure: Error | undefined;

  const fallBack = (error: Error) => {
    failure = error;
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('message', ({ id, result }: { id: number; result: CheckpointResult }) => {
    waiting.get(id)?.resolve(result);
    waiting.delete(id);
    if (waiting.size === 0 && !stopped) worker.unref();
  });
  worker.on('error', fallBack);
  worker.on('exit', () => fallBack(failure ?? new Error('the checkpoint thread has stopped')));

  return {
    now() {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ type: 'now', id });
      });
    },
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        if (failure) return resolve();
        worker.once('exit', () => resolve());
        worker.ref();
        worker.postMessage({ type: 'stop' });
      });
      return stopped;
    },
  };
}
