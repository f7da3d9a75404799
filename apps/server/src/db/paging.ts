import type { Page, PageQuery } from '@uiot/contracts';
import { type AnyColumn, asc, count, desc, ilike, type SQL, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import { AppError } from '../http/app-error.ts';
import type { Db } from './client.ts';

/** The columns (or expressions) a table may be sorted by, by the name the console sends in `sort`. */
export type Sortable = Record<string, AnyColumn | SQL>;

export interface PageOptions<S extends Sortable> {
  /** Sort used when the query names none; defaults to the first entry of `sortable`, ascending. */
  defaultSort?: { by: keyof S & string; ascending: boolean };
  /** A unique column appended to every order, so rows never move between pages. */
  tieBreaker?: AnyColumn;
}

/**
 * One page of a query (ARCHITECTURE §3): `sort` must be a key of `sortable` (otherwise 400 on `sort`),
 * `pageIndex` is 1-based. The total counts the query's rows without ordering or limit.
 * Build `query` with `.$dynamic()` and without order/limit.
 */
export async function paged<Q extends PgSelect, S extends Sortable>(
  db: Db,
  query: Q,
  sortable: S,
  page: PageQuery,
  options: PageOptions<S> = {},
): Promise<Page<Q['_']['result'][number]>> {
  const fallback = options.defaultSort ?? { by: Object.keys(sortable)[0]!, ascending: true };
  const by = page.sort || fallback.by;
  const column = Object.hasOwn(sortable, by) ? sortable[by] : undefined;
  if (!column) throw AppError.invalid([{ path: 'sort', message: 'v.invalid' }]);
  const ascending = page.sort ? (page.ascending ?? true) : fallback.ascending;

  const [counted] = await db.select({ total: count() }).from(sql`(${query}) as paged_query`);
  const order = [ascending ? asc(column) : desc(column)];
  if (options.tieBreaker) order.push(asc(options.tieBreaker));
  const rows = await query
    .orderBy(...order)
    .limit(page.pageSize)
    .offset((page.pageIndex - 1) * page.pageSize);
  return { rows, total: counted?.total ?? 0 };
}

/** Case-insensitive "contains" search; `%`, `_` and `\` in the text match themselves. */
export function containsText(column: AnyColumn | SQL, text: string): SQL {
  return ilike(column, `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}
