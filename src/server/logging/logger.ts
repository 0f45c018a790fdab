import { writeSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import pino, { type DestinationStream, type LoggerOptions } from 'pino';
import { scrubLogLine } from './scrub';

interface LoggerSettings {
  level: string;
  isProduction: boolean;
  /** LOG_PRETTY: true or false forces it; unset, pretty when stdout is a terminal (never in production). */
  pretty?: boolean;
}

/**
 * The app's pino logger: one JSON object a line (what log collectors read), or pino-pretty's
 * coloured lines for a developer at a terminal. Requests are logged as method, route path and
 * status only; known secret fields are censored, and every finished line is scrubbed of anything
 * that looks like a phone number, an e-mail address, a token or a query string.
 */
export function createLogger(settings: LoggerSettings, destination?: DestinationStream): FastifyBaseLogger {
  const options: LoggerOptions = {
    level: settings.level,
    serializers: {
      req: (req: { method?: string; url?: string }) => ({ method: req.method, url: String(req.url ?? '').split('?')[0] }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        'body',
        '*.body',
        'password',
        '*.password',
        'token',
        '*.token',
        'access_token',
        'refresh_token',
        '*.access_token',
        '*.refresh_token',
        'email',
        '*.email',
        'phone',
        '*.phone',
        'phoneNumber',
        '*.phoneNumber',
      ],
      censor: '[redacted]',
    },
    hooks: { streamWrite: scrubLogLine },
  };
  if (destination) return pino(options, destination);
  const pretty = !settings.isProduction && (settings.pretty ?? Boolean(process.stdout.isTTY));
  if (pretty) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } },
    });
  }
  // Anything else that writes to standard output (a dependency's warning) must not end the process
  // on a failed write either.
  if (!process.stdout.listeners('error').includes(ignoreWriteError)) process.stdout.on('error', ignoreWriteError);
  return pino(options, standardOutput);
}

let droppedLines = 0;

/** Log lines this process could not write (a full disk, a reader that has gone), for GET /metrics. */
export const droppedLogLines = (): number => droppedLines;

function ignoreWriteError(): void {
  droppedLines += 1;
}

/** How long one line waits, at most, for a log reader that is slow to take it (a full pipe). */
const SLOW_READER_WAIT_MS = 100;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Standard output written line by line, and a line that cannot be written is dropped and counted.
 * A log write never ends or stalls the process: not a full disk (ENOSPC), not a reader that has
 * gone (EPIPE), not any other error; when the disk has room again the next line is written. Neither
 * process.stdout (which ends the process on an unhandled write error and is unusable after one) nor
 * pino's own writer of file descriptor 1 (which retries a failed write forever when it flushes at
 * exit, so an instance whose log reader had gone hung on SIGTERM).
 */
const standardOutput: DestinationStream = {
  write(line: string) {
    const bytes = Buffer.from(line);
    let written = 0;
    let waited = 0;
    while (written < bytes.length) {
      try {
        written += writeSync(1, bytes, written);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || waited >= SLOW_READER_WAIT_MS) {
          droppedLines += 1;
          return;
        }
        Atomics.wait(pause, 0, 0, 1);
        waited += 1;
      }
    }
  },
};
