import { PAGE_SIZE_CHOICES, PAGE_SIZE_DEFAULT, type Page, timeRangeProblem } from '@uiot/contracts';
import dayjs from 'dayjs';
import { instantOf } from '../console-time.ts';
import type { QueryValue } from '../request/index.ts';
import type { SearchField, SortState } from './types.ts';

/** Spec §9: paging starts on page 1 with 20 rows; sizes 10 to 100 in steps of 10. */
export const FIRST_PAGE = 1;
export const DEFAULT_PAGE_SIZE = PAGE_SIZE_DEFAULT;
export const PAGE_SIZES: readonly number[] = PAGE_SIZE_CHOICES;

export type Query = Record<string, QueryValue>;

export interface Paging {
  pageIndex: number;
  pageSize: number;
}

function isBlank(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * A search time as the ISO text the API expects: a picked dayjs is the station's wall clock (a picker's
 * value, `instantOf`), a `Date` is an instant, a text is sent as it is.
 */
function isoTime(value: unknown): string | undefined {
  if (isBlank(value)) return undefined;
  if (typeof value === 'string') return value;
  if (dayjs.isDayjs(value)) return value.isValid() ? instantOf(value) : undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  return undefined;
}

/**
 * The end of a time range as sent: the last millisecond of its second. Pickers pick whole seconds and the
 * server keeps times to the millisecond and compares `lte end`, so a record at 12:00:00.500 belongs in a
 * range that ends at the 12:00:00 picked.
 */
function rangeEndTime(value: unknown): string | undefined {
  const end = isoTime(value);
  const at = end === undefined ? Number.NaN : Date.parse(end);
  return Number.isNaN(at) ? end : new Date(Math.floor(at / 1000) * 1000 + 999).toISOString();
}

/**
 * What is wrong with a date-time range search value (spec §5), as a validation key (`v.*`): the end not
 * later than the start; with `forExport`, also no range or more than a year. Null when it is fine.
 */
export function searchRangeProblem(value: unknown, { forExport = false } = {}): string | null {
  const [start, end] = Array.isArray(value) ? value : [];
  const from = isoTime(start);
  // The end picked must be later than the start; the year is measured to the end as sent, as the server does.
  const problem =
    timeRangeProblem(from, isoTime(end), { required: forExport, maxOneYear: false }) ??
    timeRangeProblem(from, rangeEndTime(end), { required: false, maxOneYear: forExport });
  return problem?.message ?? null;
}

/** The query parameters of one search field's value; blank values give none. */
export function searchFieldQuery(field: SearchField, value: unknown): Query {
  if (field.toQuery) return field.toQuery(value);
  switch (field.kind) {
    case 'text':
      return isBlank(value) ? {} : { [field.name]: String(value).trim() };
    case 'dateTimeRange': {
      const [start, end] = Array.isArray(value) ? value : [];
      const query: Query = {};
      const from = isoTime(start);
      const to = rangeEndTime(end);
      if (from) query[field.from] = from;
      if (to) query[field.to] = to;
      return query;
    }
    case 'select':
    case 'yesNo':
    case 'treeSelect':
    case 'custom':
      if (isBlank(value)) return {};
      return { [field.name]: value as QueryValue };
  }
}

/** The search part of a table query: every field's parameters, blank ones left out. */
export function searchQuery(
  fields: readonly SearchField[],
  values: Readonly<Record<string, unknown>>,
): Query {
  return Object.assign({}, ...fields.map((field) => searchFieldQuery(field, values[field.name])));
}

/**
 * A table query of spec §7: `sort`, `ascending`, `pageIndex`, `pageSize` and the search parameters. `fixed`
 * parameters (e.g. the department picked in a side tree) win over the search form's.
 */
export function buildPageQuery({
  fields,
  values,
  sort,
  paging,
  fixed,
}: {
  fields: readonly SearchField[];
  values: Readonly<Record<string, unknown>>;
  sort: SortState | null;
  paging: Paging | null;
  fixed?: Query | undefined;
}): Query {
  const query: Query = { ...searchQuery(fields, values) };
  for (const [name, value] of Object.entries(fixed ?? {})) {
    if (!isBlank(value)) query[name] = value;
  }
  if (sort) {
    query.sort = sort.field;
    query.ascending = sort.ascending;
  }
  if (paging) {
    query.pageIndex = paging.pageIndex;
    query.pageSize = paging.pageSize;
  }
  return query;
}

/** antd's sorter of a table change (one or several) as the server's sort, by the column's sort name. */
export function sortFromTable(
  sorter: unknown,
  sortNames: Readonly<Record<string, string>>,
): SortState | null {
  const list = Array.isArray(sorter) ? sorter : [sorter];
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const { columnKey, order } = item as { columnKey?: unknown; order?: unknown };
    const field = typeof columnKey === 'string' ? sortNames[columnKey] : undefined;
    if (field && (order === 'ascend' || order === 'descend')) return { field, ascending: order === 'ascend' };
  }
  return null;
}

/** The last page that has rows (at least 1). */
export function lastPage(total: number, pageSize: number): number {
  return Math.max(FIRST_PAGE, Math.ceil(total / pageSize));
}

/** A page size the console offers (spec §9), else the default. */
export function validPageSize(size: unknown): number {
  return typeof size === 'number' && PAGE_SIZES.includes(size) ? size : DEFAULT_PAGE_SIZE;
}

/** Spec §8: a paged answer that lacks `rows` (array) or `total` (number). */
export class PageShapeError extends Error {
  constructor() {
    super('paged mode must return rows and total');
    this.name = 'PageShapeError';
  }
}

/** Checks a paged answer's shape (spec §3); anything else is a `PageShapeError`. */
export function readPage<Row>(data: unknown): Page<Row> {
  if (
    typeof data === 'object' &&
    data !== null &&
    Array.isArray((data as { rows?: unknown }).rows) &&
    typeof (data as { total?: unknown }).total === 'number' &&
    Number.isFinite((data as { total: number }).total)
  ) {
    return data as Page<Row>;
  }
  throw new PageShapeError();
}

/**
 * The pages "export all" asks for (spec §7: page 1 with `pageSize` = total). The API serves at most
 * `maxPageSize` rows a page, so a larger total is fetched page by page.
 */
export function exportPages(total: number, maxPageSize: number): Paging[] {
  if (total <= 0) return [];
  if (total <= maxPageSize) return [{ pageIndex: FIRST_PAGE, pageSize: total }];
  return Array.from({ length: Math.ceil(total / maxPageSize) }, (_, index) => ({
    pageIndex: FIRST_PAGE + index,
    pageSize: maxPageSize,
  }));
}
