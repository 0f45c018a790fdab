import { sql, type RawBuilder } from 'kysely';
import type { AppContext } from '../context';

/**
 * A column compared without letting SQLite pick an index for it (a unary `+`, SQLite's documented
 * way): without statistics its planner took such an index over the primary key of an
 * `id IN (...)` and walked every row the column matched (db/query-plans.test.ts fails without it).
 */
export function filterOnly<Column extends string>(ctx: Pick<AppContext, 'dbKind'>, column: Column): RawBuilder<unknown> | Column {
  return ctx.dbKind === 'sqlite' ? sql`+${sql.ref(column)}` : column;
}
