import { CompiledQuery, type Compilable } from 'kysely';
import { directReaderOf, type Db } from './database';

// Stands in for a named value while the query compiles: a string no caller passes.
const SLOT = '\u0000slot:';

type Slot = { name: string } | { value: unknown };

interface Compiled {
  sql: string;
  slots: Slot[];
}

/**
 * A query built and compiled once for each kind of database, then run with fresh values, in a
 * transaction too. For the reads nearly every request makes (the session check, access, the
 * journal's revision) and the statements every inbound text runs, building and compiling the query
 * with Kysely each time cost about as much as SQLite took to run it.
 * On SQLite a read runs at once when the connection is free (database.ts, directReaderOf).
 *
 * `build` names each value with `param('name')`; the values are bound by name when it runs, so
 * their order in the SQL does not matter. Any other value in the query is fixed at compile time.
 */
export function preparedQuery<Params extends object, Row>(
  build: (db: Db, param: <K extends keyof Params & string>(name: K) => Params[K]) => Compilable<Row>,
): (db: Db, params: Params) => Promise<Row[]> {
  // Kept per dialect adapter, which a database handle and every transaction on it share (a
  // transaction is a handle of its own, so keyed by handle each would compile the query again).
  const compiled = new WeakMap<object, Compiled>();
  const compile = (db: Db): Compiled => {
    const query = build(db, (name) => `${SLOT}${name}` as never).compile();
    const slots = query.parameters.map((value): Slot => (typeof value === 'string' && value.startsWith(SLOT) ? { name: value.slice(SLOT.length) } : { value }));
    return { sql: query.sql, slots };
  };
  return async (db, params) => {
    const adapter = db.getExecutor().adapter;
    let query = compiled.get(adapter);
    if (!query) {
      query = compile(db);
      compiled.set(adapter, query);
    }
    const values = query.slots.map((slot) => ('name' in slot ? (params as Record<string, unknown>)[slot.name] : slot.value));
    const rows = directReaderOf(db)?.(query.sql, values);
    if (rows) return rows as Row[];
    return (await db.executeQuery<Row>(CompiledQuery.raw(query.sql, values))).rows;
  };
}

/**
 * An insert's row for a prepared query: each column bound as the value of that name. `columns` must
 * name every column of the row (the type checks it), so none is left out of the insert.
 */
export function namedRow<Row extends object>(columns: Record<keyof Row & string, true>, param: <K extends keyof Row & string>(name: K) => Row[K]): Row {
  return Object.fromEntries(Object.keys(columns).map((column) => [column, param(column as keyof Row & string)])) as Row;
}
