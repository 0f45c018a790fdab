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
  // process.stdout, not pino's own writer of file descriptor 1: that one retries a failed write
  // forever when it flushes at exit, so an instance whose log reader had gone (a closed pipe) hung
  // on SIGTERM instead of stopping. Lines nobody can read any more are dropped.
  if (!process.stdout.listeners('error').includes(dropWhenNobodyReads)) process.stdout.on('error', dropWhenNobodyReads);
  return pino(options, process.stdout);
}

function dropWhenNobodyReads(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
}
