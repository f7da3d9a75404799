import { ResultCode } from '@uiot/contracts';
import ExcelJS from 'exceljs';
import { AppError } from '../../../http/app-error.ts';
import { type CellValue, cellText, cellValue, isBlank } from './import-cells.ts';
import { HEADER_ROW, type SheetRow } from './import-rows.ts';
import { columnKeyOf, type SheetColumn } from './import-sheets.ts';

/** An xlsx file is a zip archive: it starts with a local file header. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

const unreadable = () => new AppError(ResultCode.ImportUnreadable);

/** The rows of the first worksheet, by column key. */
export interface ImportSheet {
  /** Keys of the columns found in the header. */
  found: Set<string>;
  /** Non-empty data rows, at most `maxRows`. */
  rows: SheetRow[];
  /** The first non-empty row beyond `maxRows`, when the sheet has more. */
  excessRow: number | null;
}

function noteText(note: unknown): string {
  if (typeof note === 'string') return note;
  if (note && typeof note === 'object' && 'texts' in note && Array.isArray(note.texts)) {
    return note.texts.map((part: { text?: unknown }) => String(part.text ?? '')).join('');
  }
  return '';
}

async function loadWorkbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  if (bytes.length < ZIP_MAGIC.length || !bytes.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) {
    throw unreadable();
  }
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's declared Buffer type predates Node's generic Buffer.
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch {
    throw unreadable();
  }
  return workbook;
}

/**
 * Reads the first worksheet of an xlsx file: the header (row 1) says which column holds what, the rows
 * after it are the data; completely empty rows are skipped. A file that is not an xlsx workbook, or whose
 * header names none of the columns, is unreadable (1141).
 */
export async function readImportSheet(
  bytes: Buffer,
  columns: readonly SheetColumn[],
  maxRows: number,
): Promise<ImportSheet> {
  const workbook = await loadWorkbook(bytes);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw unreadable();

  const positions = new Map<string, number>();
  sheet.getRow(HEADER_ROW).eachCell((cell, col) => {
    const key = columnKeyOf(columns, cellText(cellValue(cell.value)), noteText(cell.note));
    if (key && !positions.has(key)) positions.set(key, col);
  });
  if (positions.size === 0) throw unreadable();

  const rows: SheetRow[] = [];
  let excessRow: number | null = null;
  sheet.eachRow((row, rowNumber) => {
    if (rowNumber <= HEADER_ROW || excessRow !== null) return;
    const cells = new Map<string, CellValue>();
    for (const [key, col] of positions) cells.set(key, cellValue(row.getCell(col).value));
    if ([...cells.values()].every(isBlank)) return;
    if (rows.length >= maxRows) excessRow = rowNumber;
    else rows.push({ row: rowNumber, cells });
  });
  return { found: new Set(positions.keys()), rows, excessRow };
}
