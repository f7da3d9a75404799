import type { Page, PageQuery } from '@uiot/contracts';
import { type AnyColumn, asc, desc, ilike, type SQL, sql } from 'drizzle-orm';
import { PgDialect, type PgSelect } from 'drizzle-orm/pg-core';
import { AppError } from '../http/app-error.ts';
import type { Db } from './client.ts';
import { rowsOf } from './rows.ts';

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

const dialect = new PgDialect();

/**
 * The statement counting a query's rows. Its rows are those of its WITH, FROM, joins and WHERE, whatever it
 * selects, so the count keeps those and leaves out the select list (a list's subqueries cost as much to
 * build and to plan as the page itself). A query whose rows depend on more than that (DISTINCT, GROUP BY,
 * HAVING, UNION, …) is counted as a whole instead.
 */
export function countQuery(query: PgSelect): SQL {
  const config = query._.config;
  if (config.distinct || config.groupBy?.length || config.having || config.setOperators.length) {
    return sql`select count(*) as total from (${query.getSQL()}) as paged_query`;
  }
  return dialect.buildSelectQuery({
    ...config,
    fields: { total: sql`count(*)`.as('total') },
    fieldsFlat: undefined,
    orderBy: undefined,
    limit: undefined,
    offset: undefined,
    lockingClause: undefined,
  });
}

/**
 * One page of a query (ARCHITECTURE §3), ordered as `pageOrder` says; `pageIndex` is 1-based. The total
 * counts the query's rows without ordering or limit (`countQuery`).
 * Build `query` with `.$dynamic()` and without order/limit. Its select list must not change how many rows
 * it answers: no aggregate without GROUP BY, no set-returning function (the count leaves the list out).
 */
export async function paged<Q extends PgSelect, S extends Sortable>(
  db: Db,
  query: Q,
  sortable: S,
  page: PageQuery,
  options: PageOptions<S> = {},
): Promise<Page<Q['_']['result'][number]>> {
  const order = pageOrder(sortable, page, options);
  // The count is built before ordering and limits are added to the query, and the two go together: on the
  // embedded database they are queued at once, so a page waits for the work ahead of it once, not twice.
  const counting = db.execute(countQuery(query));
  const [counted, rows] = await Promise.all([
    counting,
    query
      .orderBy(...order.orderBy)
      .limit(page.pageSize)
      .offset(order.offset),
  ]);
  const [first] = rowsOf<{ total: number | string | bigint }>(counted);
  return { rows, total: first ? Number(first.total) : 0 };
}

/** Case-insensitive "contains" search; `%`, `_` and `\` in the text match themselves. */
export function containsText(column: AnyColumn | SQL, text: string): SQL {
  return ilike(column, `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}
