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
 * A query built and compiled once for each database handle, then run with fresh values. For the
 * few reads nearly every request makes (the session check, access, the journal's revision),
 * building and compiling the query with Kysely each time cost twice what SQLite took to run it.
 * On SQLite a read runs at once when the connection is free (database.ts, directReaderOf).
 *
 * `build` names each value with `param('name')`; the values are bound by name when it runs, so
 * their order in the SQL does not matter. Any other value in the query is fixed at compile time.
 */
export function preparedQuery<Params extends Record<string, unknown>, Row>(
  build: (db: Db, param: <K extends keyof Params & string>(name: K) => Params[K]) => Compilable<Row>,
): (db: Db, params: Params) => Promise<Row[]> {
  // A transaction is a handle of its own: compiled again, as any query in it would be.
  const compiled = new WeakMap<Db, Compiled>();
  const compile = (db: Db): Compiled => {
    const query = build(db, (name) => `${SLOT}${name}` as never).compile();
    const slots = query.parameters.map((value): Slot => (typeof value === 'string' && value.startsWith(SLOT) ? { name: value.slice(SLOT.length) } : { value }));
    return { sql: query.sql, slots };
  };
  return async (db, params) => {
    let query = compiled.get(db);
    if (!query) {
      query = compile(db);
      compiled.set(db, query);
    }
    const values = query.slots.map((slot) => ('name' in slot ? params[slot.name] : slot.value));
    const rows = directReaderOf(db)?.(query.sql, values);
    if (rows) return rows as Row[];
    return (await db.executeQuery<Row>(CompiledQuery.raw(query.sql, values))).rows;
  };
}
