import ExcelJS from 'exceljs';

/** A data row of an import sheet, by column key. */
export type SheetRow = Record<string, unknown>;

/** The column keys of a sheet's header, read from the notes of its cells. */
export function headerKeys(sheet: ExcelJS.Worksheet): string[] {
  const keys: string[] = [];
  sheet.getRow(1).eachCell((cell, col) => {
    keys[col - 1] = String(cell.note ?? '');
  });
  return keys;
}

/** A copy of an import template (header kept) with rows written by column key, to upload. */
export async function fillTemplate(template: Buffer, rows: SheetRow[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(template as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0]!;
  const keys = headerKeys(sheet);
  rows.forEach((row, i) => {
    sheet.getRow(i + 2).values = keys.map((key) => (row[key] ?? null) as ExcelJS.CellValue);
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
