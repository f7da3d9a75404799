import type { Writable } from 'node:stream';
import type { Lang, Translated } from '@uiot/contracts';
import ExcelJS from 'exceljs';
import { sheetTime } from './import-cells.ts';
import { DEVICE_COLUMNS, type SheetColumn } from './import-sheets.ts';
import type { LedgerRecord } from './ledger-export.repository.ts';
import { sheetColumns, writeHeader } from './xlsx-file.ts';

const t = (en: string, zhCN: string, zhTW: string): Translated => ({ en, 'zh-CN': zhCN, 'zh-TW': zhTW });

export const LEDGER_FILE_NAME = t('device-ledger', '设备台账', '設備台賬');
const SHEET_NAME = t('Device ledger', '设备台账', '設備台賬');

const REGISTERED = t('Registered', '已注册', '已註冊');
const UNREGISTERED = t('Unregistered', '未注册', '未註冊');

/** Columns only the export has; the importer ignores them. */
const TYPE_NAME: SheetColumn = {
  key: 'typeName',
  title: t('Device type', '设备类型', '設備類型'),
  width: 18,
};
const EXPORT_ONLY: readonly SheetColumn[] = [
  { key: 'regist', title: t('Registration', '注册状态', '註冊狀態'), width: 12 },
  {
    key: 'registTime',
    title: t('Registration time (UTC+8)', '注册时间（UTC+8）', '註冊時間（UTC+8）'),
    width: 20,
  },
  { key: 'createdAt', title: t('Created at (UTC+8)', '创建时间（UTC+8）', '建立時間（UTC+8）'), width: 20 },
];

/**
 * The export's columns: those of the device template (same keys and titles, so an export can be edited and
 * imported again), the type's name beside its code, then the registration and the creation time.
 */
export const LEDGER_COLUMNS: readonly SheetColumn[] = [
  ...DEVICE_COLUMNS.flatMap((c) => (c.key === 'typeCode' ? [c, TYPE_NAME] : [c])),
  ...EXPORT_ONLY,
];

type Cell = string | number | null;

const decimal = (value: string | null): number | null => (value === null ? null : Number(value));

/** The value of each column for a device; the unit is written as its path, as the template expects. */
function cellOf(key: string, r: LedgerRecord, unitPaths: ReadonlyMap<string, string>, lang: Lang): Cell {
  switch (key) {
    case 'unitPath':
      return unitPaths.get(r.unitId) ?? '';
    case 'lng':
      return decimal(r.lng);
    case 'lat':
      return decimal(r.lat);
    case 'regist':
      return (r.regist ? REGISTERED : UNREGISTERED)[lang];
    case 'registTime':
      return sheetTime(r.registTime);
    case 'createdAt':
      return sheetTime(r.createdAt);
    default: {
      const value = (r as unknown as Record<string, unknown>)[key];
      return typeof value === 'string' ? value : null;
    }
  }
}

export function ledgerCells(r: LedgerRecord, unitPaths: ReadonlyMap<string, string>, lang: Lang): Cell[] {
  return LEDGER_COLUMNS.map((c) => cellOf(c.key, r, unitPaths, lang));
}

/** Resolves when the stream can take more, or has closed. */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/**
 * Writes the ledger as an xlsx workbook into `out` as the rows arrive: each row is committed (written to
 * the zip) at once, and the next chunk is read only when `out` has taken the previous one.
 */
export async function writeLedger(
  out: Writable,
  lang: Lang,
  unitPaths: ReadonlyMap<string, string>,
  batches: AsyncIterable<LedgerRecord[]>,
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(SHEET_NAME[lang], { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = sheetColumns(LEDGER_COLUMNS);
  writeHeader(sheet, LEDGER_COLUMNS, lang).commit();
  for await (const batch of batches) {
    for (const record of batch) sheet.addRow(ledgerCells(record, unitPaths, lang)).commit();
    if (out.destroyed) return;
    if (out.writableNeedDrain) await drained(out);
  }
  sheet.commit();
  await workbook.commit();
}
