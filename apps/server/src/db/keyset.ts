import { type AnyColumn, count, type SQL, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/**
 * Where a newest-first read by (time, id) stands: the row's time as PostgreSQL's own text (microseconds
 * kept, which a JS Date would drop) and its id.
 */
export interface KeysetPosition<Id extends string | number = string | number> {
  time: string;
  id: Id;
}

/** A row's time as PostgreSQL's text, for its keyset position. */
export const positionTime = (time: AnyColumn) => sql<string>`${time}::text`;

/** The rows after `after` in newest-first order of (time, id); no condition for the first read. */
export function olderThan(time: AnyColumn, id: AnyColumn, after: KeysetPosition | null): SQL | undefined {
  return after ? sql`(${time}, ${id}) < (${after.time}::timestamptz, ${after.id})` : undefined;
}

/**
 * Rows of an export, batch by batch in the order `read` gives, never more than `maxRows` in all: `read`
 * answers up to `limit` rows after a position (the first read gets null), each with its own position.
 */
export async function* keysetBatches<Row, Position>(
  read: (after: Position | null, limit: number) => Promise<Array<{ row: Row; position: Position }>>,
  options: { maxRows: number; batchSize: number },
): AsyncGenerator<Row[]> {
  let after: Position | null = null;
  let left = options.maxRows;
  while (left > 0) {
    const batch = await read(after, Math.min(options.batchSize, left));
    if (batch.length === 0) return;
    yield batch.map((b) => b.row);
    left -= batch.length;
    if (batch.length < options.batchSize) return;
    after = batch[batch.length - 1]!.position;
  }
}

/**
 * How many rows a query finds, counted no further than `cap` (an export checks its limit without counting
 * a year of records). `rows` selects anything (e.g. `sql\`1\``), built with `.$dynamic()`.
 */
export async function countUpTo(db: Db, rows: PgSelect, cap: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(rows.limit(cap).as('bounded'));
  return row?.n ?? 0;
}
