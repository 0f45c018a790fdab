import { sql, type RawBuilder } from 'kysely';
import type { AppContext } from '../context';

/**
 * A column to compare without letting SQLite pick an index for it: only the indexes of the other
 * terms are candidates (the primary key of an `id IN (...)`, or a partial index the query names).
 *
 * Without statistics, SQLite's planner guesses that `column = ?` (or `IS NULL`) on an index's first
 * column finds about ten rows, and prefers that index to a list of more ids than that, or to an
 * index it cannot judge better: claiming 20 inbound texts walked every inbound text ever received
 * through the index on `direction` (5 ms a claim at 20,000 texts, growing with the table), and
 * scheduling 500 profiles walked every unscheduled profile through the index on
 * `next_reminder_at`. A unary `+` changes nothing about the value and keeps the term out of index
 * choice (the SQLite planner's documented way). PostgreSQL keeps statistics and is given the plain
 * column.
 */
export function filterOnly<Column extends string>(ctx: Pick<AppContext, 'dbKind'>, column: Column): RawBuilder<unknown> | Column {
  return ctx.dbKind === 'sqlite' ? sql`+${sql.ref(column)}` : column;
}
