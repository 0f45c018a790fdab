import { sql, type RawBuilder } from 'kysely';
import type { AppContext } from '../context';

/**
 * A column to compare, in a statement that finds its rows by primary key (`id IN (...)`), without
 * letting SQLite pick an index for it.
 *
 * Without statistics, SQLite's planner guesses that `column = ?` (or `IS NULL`) on an index's first
 * column finds about ten rows. For a list of more ids than that it then prefers that index to the
 * primary key: claiming 20 inbound texts walked every inbound text ever received through the index
 * on `direction` (5 ms a claim at 20,000 texts, growing with the table), and scheduling 500 profiles
 * walked every unscheduled profile through the index on `next_reminder_at`. A unary `+` changes
 * nothing about the value and keeps the term out of index choice (the SQLite planner's documented
 * way). PostgreSQL keeps statistics and is given the plain column.
 */
export function filterOnly<Column extends string>(ctx: Pick<AppContext, 'dbKind'>, column: Column): RawBuilder<unknown> | Column {
  return ctx.dbKind === 'sqlite' ? sql`+${sql.ref(column)}` : column;
}
