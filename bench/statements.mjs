// Counting the SQL statements (on PostgreSQL: the round trips) the app makes in this process, at
// the drivers: better-sqlite3's statement methods, and pg's Client.query.
import { performance } from 'node:perf_hooks';

/**
 * Runs `work` and resolves with the statements run meanwhile: `{ count, commits, detail }`: commits
 * are the transactions and the writes outside one (each waits for the disk at SQLite's FULL), detail
 * maps each statement's SQL to its count and milliseconds (a sample without the other's time).
 */
export async function countStatements(kind, work) {
  const detail = new Map();
  let count = 0;
  let commits = 0;
  // Per connection: on PostgreSQL several texts are processed side by side, each on its own.
  const inTransaction = new Set();
  const note = (sql, started, connection) => {
    count += 1;
    const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase();
    if (verb === 'begin') inTransaction.add(connection);
    else if (verb === 'commit' || verb === 'rollback') {
      inTransaction.delete(connection);
      commits += verb === 'commit' ? 1 : 0;
    } else if (!inTransaction.has(connection) && ['insert', 'update', 'delete', 'replace'].includes(verb)) commits += 1;
    const seen = detail.get(sql) ?? { n: 0, ms: 0 };
    seen.n += 1;
    seen.ms += performance.now() - started;
    detail.set(sql, seen);
  };
  const restore = kind === 'postgres' ? await wrapPg(note) : await wrapSqlite(note);
  try {
    await work();
  } finally {
    restore();
  }
  return { count, commits, detail };
}

async function wrapPg(note) {
  const { default: pg } = await import('pg');
  const proto = pg.Client.prototype;
  const original = proto.query;
  proto.query = function (config, ...rest) {
    const started = performance.now();
    const result = original.call(this, config, ...rest);
    const sql = typeof config === 'string' ? config : config?.text ?? '?';
    if (result && typeof result.then === 'function') return result.finally(() => note(sql, started, this));
    note(sql, started, this);
    return result;
  };
  return () => {
    proto.query = original;
  };
}

async function wrapSqlite(note) {
  const { default: SQLite } = await import('better-sqlite3');
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1'));
  probe.close();
  const originals = {};
  for (const name of ['run', 'get', 'all', 'iterate']) {
    originals[name] = proto[name];
    proto[name] = function (...args) {
      const started = performance.now();
      try {
        return originals[name].apply(this, args);
      } finally {
        note(this.source, started, 'sqlite');
      }
    };
  }
  return () => Object.assign(proto, originals);
}

/** The statements of a count, the costliest first, one line each (BENCH_SQL_DETAIL=1 prints them). */
export function statementLines(detail, indent = '    ') {
  return [...detail].sort((a, b) => b[1].ms - a[1].ms).map(([sql, { n, ms }]) => `${indent}${ms.toFixed(1).padStart(8)} ms ${String(n).padStart(4)}× ${sql.replace(/\s+/g, ' ').slice(0, 150)}`);
}
