import type { CellValue } from './types.ts';

/**
 * CSV written in the browser for spreadsheets (RFC 4180), as the server writes its exports: UTF-8 with a
 * byte-order mark so Excel reads Chinese, CRLF line ends, cells quoted when needed, and a text cell that a
 * spreadsheet would run as a formula (= + - @ tab CR) prefixed with an apostrophe (CSV injection).
 */
export const CSV_BOM = '\uFEFF';
export const CSV_MIME = 'text/csv;charset=utf-8';

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const raw = String(value);
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly CellValue[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The whole file: the mark, the header line, then a line per row. */
export function toCsv(header: readonly string[], rows: readonly (readonly CellValue[])[]): string {
  return CSV_BOM + csvLine(header) + rows.map(csvLine).join('');
}
