import { toCsv } from '@uiot/contracts';
import { formatDateTime } from '../i18n/date-format.ts';
import type { CellValue, CrudColumn } from './types.ts';

export interface CellLabels {
  yes: string;
  no: string;
}

/** The value of a column in a row: its `value`, else the row's field named by `key`. */
export function cellValue<Row>(column: CrudColumn<Row>, row: Row): CellValue {
  if (column.value) return column.value(row);
  const value = (row as Record<string, unknown>)[column.key];
  if (value === null || value === undefined) return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return value as CellValue;
}

/** The text of a value as the table shows it and the CSV holds it ('' when there is none). */
export function cellText(
  value: CellValue,
  format: CrudColumn<unknown>['format'],
  labels: CellLabels,
): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'boolean' || format === 'boolean') {
    return value === true || value === 'true' ? labels.yes : labels.no;
  }
  if (format === 'dateTime') return formatDateTime(value);
  return String(value);
}

/** A value for the CSV: numbers stay numbers (so "-5" is not taken for a formula), the rest as shown. */
export function csvValue(
  value: CellValue,
  format: CrudColumn<unknown>['format'],
  labels: CellLabels,
): CellValue {
  if (typeof value === 'number' && format !== 'boolean' && format !== 'dateTime') return value;
  return cellText(value, format, labels);
}

/** CSV of rows in the given columns (the visible ones), with the titles as header. */
export function rowsToCsv<Row>(
  columns: readonly CrudColumn<Row>[],
  rows: readonly Row[],
  labels: CellLabels,
): string {
  const exported = columns.filter((column) => !column.noExport);
  return toCsv(
    exported.map((column) => column.title),
    rows.map((row) => exported.map((column) => csvValue(cellValue(column, row), column.format, labels))),
  );
}
