import type { ImportKind, Lang } from '@uiot/contracts';
import ExcelJS from 'exceljs';
import { IMPORT_COLUMNS, TEMPLATE_NAMES } from './import-sheets.ts';
import { sheetColumns, writeHeader, type XlsxFile, xlsxFileNames } from './xlsx-file.ts';

/**
 * The import template of a kind: one sheet with the header only (an example row would be imported with
 * the rest). Code and digit columns are formatted as text so Excel keeps what is typed.
 */
export async function importTemplate(kind: ImportKind, lang: Lang): Promise<XlsxFile> {
  const columns = IMPORT_COLUMNS[kind];
  const names = TEMPLATE_NAMES[kind];
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(names.sheet[lang], { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = sheetColumns(columns);
  writeHeader(sheet, columns, lang);
  const content = Buffer.from(await workbook.xlsx.writeBuffer());
  return { ...xlsxFileNames(names.file, lang), content };
}
