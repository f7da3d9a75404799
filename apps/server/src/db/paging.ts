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

/** The order a page query asks for, resolved against what may be sorted by. */
export interface PageOrder<S extends Sortable> {
  by: keyof S & string;
  ascending: boolean;
  /** The ORDER BY terms: the sort key (empty values last ascending, first descending), then the tie breaker. */
  orderBy: SQL[];
  /** Rows skipped before the page. */
  offset: number;
}

/**
 * The order of a page (ARCHITECTURE §3): `sort` must be a key of `sortable` (otherwise 400 on `sort`),
 * `ascending` counts only with a `sort`; without one the default sort applies.
 */
export function pageOrder<S extends Sortable>(
  sortable: S,
  page: PageQuery,
  options: PageOptions<S> = {},
): PageOrder<S> {
  const fallback = options.defaultSort ?? { by: Object.keys(sortable)[0]!, ascending: true };
  const by = page.sort || fallback.by;
  const column = Object.hasOwn(sortable, by) ? sortable[by] : undefined;
  if (!column) throw AppError.invalid([{ path: 'sort', message: 'v.invalid' }]);
  const ascending = page.sort ? (page.ascending ?? true) : fallback.ascending;
  const orderBy = [ascending ? asc(column) : desc(column)];
  if (options.tieBreaker) orderBy.push(asc(options.tieBreaker));
  return { by, ascending, orderBy, offset: (page.pageIndex - 1) * page.pageSize };
}

/**
 * One page of a query (ARCHITECTURE §3), ordered as `pageOrder` says; `pageIndex` is 1-based. The total
 * counts the query's rows without ordering or limit.
 * Build `query` with `.$dynamic()` and without order/limit.
 */
export async function paged<Q extends PgSelect, S extends Sortable>(
  db: Db,
  query: Q,
  sortable: S,
  page: PageQuery,
  options: PageOptions<S> = {},
): Promise<Page<Q['_']['result'][number]>> {
  const order = pageOrder(sortable, page, options);
  // The count is built from the query as it stands (getSQL) before ordering and limits are added to it,
  // and the two go together: on the embedded database they are queued at once, so a page waits for the
  // work ahead of it once, not twice.
  const counting = db.select({ total: count() }).from(sql`(${query.getSQL()}) as paged_query`);
  const [[counted], rows] = await Promise.all([
    counting,
    query
      .orderBy(...order.orderBy)
      .limit(page.pageSize)
      .offset(order.offset),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/** Case-insensitive "contains" search; `%`, `_` and `\` in the text match themselves. */
export function containsText(column: AnyColumn | SQL, text: string): SQL {
  return ilike(column, `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}
