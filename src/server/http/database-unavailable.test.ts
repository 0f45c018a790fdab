import { createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from '../test/processes';
import { isDatabaseUnavailable } from './database-unavailable';

// The errors node-postgres really gives when PostgreSQL is away, made here without a database.
describe('a database that is away, told from a bug', () => {
  it('counts a refused connection and a server that never answers as the database being away', async () => {
    const closed = await freePort();
    const refused = await new pg.Client({ connectionString: `postgres://jotline@127.0.0.1:${closed}/jotline` }).connect().catch((err: unknown) => err);
    expect(isDatabaseUnavailable(refused)).toBe(true);

    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const pool = new pg.Pool({ connectionString: `postgres://jotline@127.0.0.1:${(silent.address() as { port: number }).port}/jotline`, connectionTimeoutMillis: 100 });
    try {
      const timedOut = await pool.query('select 1').catch((err: unknown) => err);
      expect(isDatabaseUnavailable(timedOut)).toBe(true);
    } finally {
      await pool.end();
      silent.close();
    }
  });

  it('counts PostgreSQL’s shutdown and connection errors, and nothing else', () => {
    const withCode = (code: string, message = 'from PostgreSQL') => Object.assign(new Error(message), { code });
    expect(isDatabaseUnavailable(withCode('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('57P03', 'the database system is starting up'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('08006'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('SQLITE_CONSTRAINT_UNIQUE'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('undefined is not a function'))).toBe(false);
  });
});
