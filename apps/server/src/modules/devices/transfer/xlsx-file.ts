import type { Readable } from 'node:stream';
import { type Lang, type Translated, XLSX_MIME } from '@uiot/contracts';
import type ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from '../../../http/file-reply.ts';
import { headerTitle, type SheetColumn } from './import-sheets.ts';

/** An xlsx answer: its name (an ASCII one for old clients, and the one in the request's language). */
export interface XlsxFile {
  asciiName: string;
  name: string;
  content: Buffer | Readable;
}

/** The file name in the request's language, with the English one as the ASCII fallback. */
export function xlsxFileNames(
  base: Translated,
  lang: Lang,
  suffix = '',
): { asciiName: string; name: string } {
  return { asciiName: `${base.en}${suffix}.xlsx`, name: `${base[lang]}${suffix}.xlsx` };
}

/** Sends the file itself (not the envelope): the endpoint wrapper leaves a sent reply as it is. */
export function sendXlsx(reply: FastifyReply, file: XlsxFile): FastifyReply {
  return reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', contentDisposition(file.asciiName, file.name))
    .send(file.content);
}

/**
 * The header row of a template or an export: titles in the request's language, bold, and each column's
 * key as the note of its header cell, which the importer reads whatever the language of the titles.
 */
export function writeHeader(
  sheet: ExcelJS.Worksheet,
  columns: readonly SheetColumn[],
  lang: Lang,
): ExcelJS.Row {
  const row = sheet.getRow(1);
  row.values = columns.map((c) => headerTitle(c, lang));
  row.font = { bold: true };
  columns.forEach((c, i) => {
    row.getCell(i + 1).note = c.key;
  });
  return row;
}

export function sheetColumns(columns: readonly SheetColumn[]): Partial<ExcelJS.Column>[] {
  return columns.map((c) => ({ width: c.width ?? 16, ...(c.text ? { style: { numFmt: '@' } } : {}) }));
}
