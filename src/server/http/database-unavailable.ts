/** Node's codes for a connection that could not be made or was lost. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** PostgreSQL's: 08xxx connection exceptions, 57P01–57P03 shutting down or not yet accepting, 53300 too many connections. */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** node-postgres's own errors for a lost or unobtainable connection, which carry no code. */
const PG_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;

/** Whether an error means the database is away (restarting, unreachable, connection killed) rather than a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
  return PG_MESSAGES.test(error.message);
}

/** SQLite's SQLITE_FULL and PostgreSQL's disk_full (53100): the database's disk has no room for a write. */
export function isDatabaseFull(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_FULL' || code === '53100';
}
