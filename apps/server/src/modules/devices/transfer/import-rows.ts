import type { ImportError, Lang } from '@uiot/contracts';
import type { z } from 'zod';
import { type CellValue, cellText, listValue } from './import-cells.ts';
import { type Reason, translateReason } from './import-messages.ts';
import type { SheetColumn } from './import-sheets.ts';

/**
 * What the import rules of every kind share: rows read from the sheet, the problems found in them, and the
 * checks of duplicates and of names that must name something. All pure: what the database knows comes in
 * as maps built beforehand.
 */

/** A data row of the sheet: its number as Excel shows it, and its cells by column key. */
export interface SheetRow {
  row: number;
  cells: ReadonlyMap<string, CellValue>;
}

/** A problem of a row, in one column (by key) or in the whole row (column null). */
export interface RowIssue extends Reason {
  row: number;
  column: string | null;
}

/** A kind's rows read against its form: what each row reads as, and the problems found. */
export interface ParsedRows<P> {
  parsed: P[];
  issues: RowIssue[];
}

/**
 * Read rows checked against what the database knows: the problems, and the rows that have none, ready to
 * be written (an import writes them only when no row has a problem).
 */
export interface ResolvedRows<N> {
  issues: RowIssue[];
  accepted: N[];
}

export const HEADER_ROW = 1;

export function cellOf(row: SheetRow, key: string): CellValue {
  return row.cells.get(key) ?? null;
}

export function textOf(row: SheetRow, key: string): string {
  return cellText(cellOf(row, key));
}

/**
 * One problem per cell whose text holds U+0000 (an xlsx cell can, written as `_x0000_`): no text column can
 * store it, so the file is refused before any of its values is looked up.
 */
export function nulCellIssues(rows: readonly SheetRow[]): RowIssue[] {
  const issues: RowIssue[] = [];
  for (const { row, cells } of rows) {
    for (const [column, value] of cells) {
      if (typeof value === 'string' && value.includes('\u0000')) issues.push({ row, column, key: 'v.nul' });
    }
  }
  return issues;
}

/** One problem per required column the header lacks. */
export function missingColumnIssues(columns: readonly SheetColumn[], found: ReadonlySet<string>): RowIssue[] {
  return columns
    .filter((c) => c.required && !found.has(c.key))
    .map((c) => ({ row: HEADER_ROW, column: c.key, key: 'import.missingColumn' }));
}

/**
 * The form's problems with a row, one per column (the first), with the `v.*` key the form gives; a field
 * outside the sheet's columns is reported for the whole row.
 */
export function schemaIssues(
  row: number,
  error: z.ZodError,
  columnOf: (field: string) => string | null,
): RowIssue[] {
  const issues: RowIssue[] = [];
  const seen = new Set<string | null>();
  for (const issue of error.issues) {
    const column = columnOf(String(issue.path[0] ?? ''));
    if (seen.has(column)) continue;
    seen.add(column);
    const key = issue.message.startsWith('v.') ? (issue.message as `v.${string}`) : 'v.invalid';
    const max = 'maximum' in issue ? Number(issue.maximum) : undefined;
    issues.push({ row, column, key, ...(max === undefined ? {} : { params: { max } }) });
  }
  return issues;
}

/** The value a field schema makes of an input, or undefined when it refuses it. */
export function fieldValue<T>(schema: z.ZodType<T>, input: unknown): T | undefined {
  const result = schema.safeParse(input);
  return result.success ? result.data : undefined;
}

/** A closed-list cell: the value (null when empty), or a problem naming the allowed values. */
export function listCell<T extends string>(
  row: SheetRow,
  column: string,
  values: readonly T[],
): { value: T | null; issue?: RowIssue } {
  const text = textOf(row, column);
  if (text === '') return { value: null };
  const value = listValue(values, text);
  if (value) return { value };
  return {
    value: null,
    issue: { row: row.row, column, key: 'import.oneOf', params: { values: values.join(', ') } },
  };
}

/** Remembers the first row of each value, to point later rows at it. */
export class FirstRows {
  private readonly rows = new Map<string, number>();

  /** The earlier row with the value, or undefined (then this row becomes the first). */
  earlier(value: string, row: number): number | undefined {
    const first = this.rows.get(value);
    if (first !== undefined) return first;
    this.rows.set(value, row);
    return undefined;
  }
}

/**
 * A value that must be unique over the ledger: taken in the database, or the same as an earlier row of
 * the file. `value` is compared as given (fold the case first where case does not count).
 */
export function uniqueIssue(
  row: number,
  column: string,
  value: string | null | undefined,
  taken: ReadonlySet<string>,
  firstRows: FirstRows,
): RowIssue | undefined {
  if (!value) return undefined;
  if (taken.has(value)) return { row, column, key: 'import.taken' };
  const earlier = firstRows.earlier(value, row);
  return earlier === undefined
    ? undefined
    : { row, column, key: 'import.duplicateInFile', params: { row: earlier } };
}

/** A name as looked up: trimmed, case ignored. */
export function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

/** Departments and staff members by name (case ignored): several departments may share a name. */
export interface PeopleRefs {
  departments: ReadonlyMap<string, readonly string[]>;
  staff: ReadonlyMap<string, string>;
}

/** The department or staff member a cell names: its id (null when empty) and the problem, if any. */
export function resolvePerson(
  refs: PeopleRefs,
  kind: 'department' | 'staff',
  row: number,
  column: string,
  name: string,
): { id: string | null; issue?: RowIssue } {
  if (name === '') return { id: null };
  if (kind === 'staff') {
    const id = refs.staff.get(nameKey(name));
    return id ? { id } : { id: null, issue: { row, column, key: 'import.staffNotFound' } };
  }
  const ids = refs.departments.get(nameKey(name)) ?? [];
  if (ids.length === 1) return { id: ids[0]! };
  return {
    id: null,
    issue: { row, column, key: ids.length ? 'import.deptAmbiguous' : 'import.deptNotFound' },
  };
}

/** The department (column `deptName`) and the staff member (column `staffName`) a row names. */
export function resolvePeople(
  refs: PeopleRefs,
  row: number,
  names: { deptName: string; staffName: string },
): { deptId: string | null; staffId: string | null; issues: RowIssue[] } {
  const dept = resolvePerson(refs, 'department', row, 'deptName', names.deptName);
  const staff = resolvePerson(refs, 'staff', row, 'staffName', names.staffName);
  return {
    deptId: dept.id,
    staffId: staff.id,
    issues: [dept.issue, staff.issue].filter((issue) => issue !== undefined),
  };
}

/** The names looked up in the database for a set of rows: distinct, by their lookup key. */
export function distinctKeys(values: Iterable<string>, key: (value: string) => string = (v) => v): string[] {
  const keys = new Set<string>();
  for (const value of values) if (value !== '') keys.add(key(value));
  return [...keys];
}

/** The problems as answered: by row, then in the order of the sheet's columns; titles and reasons translated. */
export function importErrors(
  issues: readonly RowIssue[],
  columns: readonly SheetColumn[],
  lang: Lang,
): ImportError[] {
  const order = new Map(columns.map((c, i) => [c.key, i]));
  const position = (column: string | null) => (column === null ? -1 : (order.get(column) ?? columns.length));
  return [...issues]
    .sort((a, b) => a.row - b.row || position(a.column) - position(b.column))
    .map((issue) => {
      const column = issue.column === null ? undefined : columns.find((c) => c.key === issue.column);
      return {
        row: issue.row,
        column: column ? column.title[lang] : null,
        message: translateReason(issue, lang),
      };
    });
}
