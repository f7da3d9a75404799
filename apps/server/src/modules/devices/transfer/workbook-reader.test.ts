import { ResultCode } from '@uiot/contracts';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../http/app-error.ts';
import { KEY_COLUMNS } from './import-sheets.ts';
import { importTemplate } from './import-template.ts';
import { readImportSheet } from './workbook-reader.ts';

async function workbookOf(rows: unknown[][], notes: Record<string, string> = {}): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  for (const row of rows) sheet.addRow(row);
  for (const [address, note] of Object.entries(notes)) sheet.getCell(address).note = note;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function codeOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.code : -1;
  }
}

describe('workbook reader', () => {
  it('reads a template of any language, skipping empty rows', async () => {
    const template = await importTemplate('key', 'zh-TW');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(template.content as unknown as ExcelJS.Buffer);
    const sheet = workbook.worksheets[0]!;
    sheet.getRow(2).values = ['Key 1', 'K-1'];
    sheet.getRow(4).values = ['Key 2', { richText: [{ text: 'K-' }, { text: '2' }] }];
    sheet.getRow(5).values = ['  ', null];
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());

    const read = await readImportSheet(bytes, KEY_COLUMNS, 10);
    expect([...read.found].sort()).toEqual(['code', 'deptName', 'desc', 'name', 'staffName']);
    expect(read.rows.map((r) => [r.row, r.cells.get('name'), r.cells.get('code')])).toEqual([
      [2, 'Key 1', 'K-1'],
      [4, 'Key 2', 'K-2'],
    ]);
    expect(read.excessRow).toBeNull();
  });

  it('finds columns by the note, else by a title of any language, in any order', async () => {
    const bytes = await workbookOf(
      [
        ['Something', '名稱', 'Extra'],
        ['K-9', 'Key 9', 'ignored'],
      ],
      { A1: 'code' },
    );
    const read = await readImportSheet(bytes, KEY_COLUMNS, 10);
    expect([...read.found]).toEqual(['code', 'name']);
    expect(Object.fromEntries(read.rows[0]!.cells)).toEqual({ code: 'K-9', name: 'Key 9' });
  });

  it('stops at the row after the most it takes', async () => {
    const bytes = await workbookOf([['Name', 'Key code'], ['a', '1'], [], ['b', '2'], ['c', '3']]);
    const read = await readImportSheet(bytes, KEY_COLUMNS, 2);
    expect(read.rows).toHaveLength(2);
    expect(read.excessRow).toBe(5);
  });

  it('refuses what is not an xlsx workbook made from a template', async () => {
    const unreadable = ResultCode.ImportUnreadable;
    expect(await codeOf(readImportSheet(Buffer.from('name,code\nKey,K-1\n'), KEY_COLUMNS, 10))).toBe(
      unreadable,
    );
    expect(await codeOf(readImportSheet(Buffer.from('PK\x03\x04 broken'), KEY_COLUMNS, 10))).toBe(unreadable);
    const foreign = await workbookOf([
      ['Colour', 'Size'],
      ['red', 'L'],
    ]);
    expect(await codeOf(readImportSheet(foreign, KEY_COLUMNS, 10))).toBe(unreadable);
  });
});
