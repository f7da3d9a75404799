/**
 * CSV for spreadsheets (RFC 4180): UTF-8 with a byte-order mark so Excel reads Chinese correctly, CRLF
 * line ends, quoted cells where needed. A text cell that a spreadsheet would run as a formula (starting
 * with = + - @ or a control character) is prefixed with an apostrophe (OWASP CSV injection).
 */
export const CSV_BOM = '\uFEFF';

export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
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
