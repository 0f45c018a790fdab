import type { FastifyError, FastifyInstance } from 'fastify';
import { messages } from '../../shared/messages';
import { AppError } from '../errors';
import { isDatabaseFull, isDatabaseUnavailable } from './database-unavailable';

/** A full database disk is logged once a minute at most: every write fails alike until there is room. */
const DISK_FULL_LOG_EVERY_MS = 60_000;

/** The one place errors become HTTP answers: `{error: {code, message}}`. */
export function registerErrorHandler(app: FastifyInstance): void {
  let diskFullLoggedAt = -Infinity;
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send({ error: { code: error.code, message: error.message }, ...error.extra });
    }
    if (isDatabaseFull(error)) {
      // Nothing was written (the transaction rolled back) and a retry will do once there is room;
      // Twilio retries a 5xx webhook. The operator needs the cause, once, not a line per request.
      if (performance.now() - diskFullLoggedAt >= DISK_FULL_LOG_EVERY_MS) {
        diskFullLoggedAt = performance.now();
        request.log.error({ err: error.message, code: (error as { code?: string }).code }, 'database disk full: writes are refused until it has room');
      }
      return reply.status(503).send({ error: { code: 'UNAVAILABLE', message: messages.generic.unavailable } });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is restarting or unreachable: a retry will do (Twilio retries a 5xx webhook).
      request.log.warn({ err: error.message }, 'database unavailable');
      return reply.status(503).send({ error: { code: 'UNAVAILABLE', message: messages.generic.unavailable } });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ error: { code: 'RATE_LIMITED', message: messages.generic.rateLimited } });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own refusals: malformed JSON, body too large, wrong content type.
      const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'INVALID_INPUT';
      return reply.status(status).send({ error: { code, message: error.message } });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: { code: 'INTERNAL', message: messages.generic.internal } });
  });
}
