/**
 * CSV for spreadsheets (RFC 4180), the one writer of the server's exports and the console's: UTF-8 with a
 * byte-order mark so Excel reads Chinese correctly, CRLF line ends, quoted cells where needed. A text cell
 * that a spreadsheet would run as a formula (starting with = + - @ or a control character) is prefixed with
 * an apostrophe (OWASP CSV injection); numbers stay numbers, so "-5" is written as it is.
 */
export const CSV_BOM = '\uFEFF';
export const CSV_MIME = 'text/csv;charset=utf-8';

export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const raw = String(value);
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The whole file at once: the mark, the header line, then a line per row. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return CSV_BOM + csvLine(header) + rows.map(csvLine).join('');
}

/** The whole file as a stream of text: the mark and header first, then the rows batch by batch. */
export async function* csvFile<Row>(
  header: readonly string[],
  batches: AsyncIterable<readonly Row[]>,
  cellsOf: (row: Row) => readonly CsvCell[],
): AsyncGenerator<string> {
  yield CSV_BOM + csvLine(header);
  for await (const batch of batches) {
    if (batch.length > 0) yield batch.map((row) => csvLine(cellsOf(row))).join('');
  }
}
