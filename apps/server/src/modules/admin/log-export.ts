import type { CsvCell, Lang, LoginLogRow, OpLogRow, Translated } from '@uiot/contracts';
import { CONSOLE_UTC_OFFSET_HOURS } from '../../lib/console-day.ts';

/**
 * Times in exports are written as the console shows them (spec §9: yyyy-MM-dd HH:mm:ss, UTC shifted by
 * 8 hours); the header names the offset.
 */
export const EXPORT_UTC_OFFSET_HOURS = CONSOLE_UTC_OFFSET_HOURS;

export function exportTime(value: string | null): string {
  if (!value) return '';
  const shifted = new Date(Date.parse(value) + EXPORT_UTC_OFFSET_HOURS * 3_600_000);
  return shifted.toISOString().slice(0, 19).replace('T', ' ');
}

function stamp(date: Date): string {
  return exportTime(date.toISOString()).slice(0, 10).replaceAll('-', '');
}

/** `{what}_{yyyyMMdd}-{yyyyMMdd}.csv` in the export's time zone. */
export function exportFileName(what: string, start: Date, end: Date): string {
  return `${what}_${stamp(start)}-${stamp(end)}.csv`;
}

export interface ExportColumn<Row> {
  header: Translated;
  cell(row: Row): CsvCell;
}

export const timeHeader = (zhCN: string, en: string, zhTW: string): Translated => ({
  'zh-CN': `${zhCN}（UTC+8）`,
  en: `${en} (UTC+8)`,
  'zh-TW': `${zhTW}（UTC+8）`,
});

const userColumns = {
  userName: { 'zh-CN': '用户名', en: 'User name', 'zh-TW': '用戶名稱' },
  userId: { 'zh-CN': '用户 ID', en: 'User ID', 'zh-TW': '用戶 ID' },
  ipAddr: { 'zh-CN': 'IP 地址', en: 'IP address', 'zh-TW': 'IP 位址' },
  id: { 'zh-CN': '编号', en: 'ID', 'zh-TW': '編號' },
} satisfies Record<string, Translated>;

export const OP_LOG_COLUMNS: readonly ExportColumn<OpLogRow>[] = [
  { header: userColumns.id, cell: (r) => r.id },
  { header: timeHeader('操作时间', 'Operation time', '操作時間'), cell: (r) => exportTime(r.operateTime) },
  { header: userColumns.userName, cell: (r) => r.userName },
  { header: userColumns.userId, cell: (r) => r.userId },
  { header: userColumns.ipAddr, cell: (r) => r.ipAddr },
  { header: { 'zh-CN': '请求方式', en: 'Method type', 'zh-TW': '請求方式' }, cell: (r) => r.methodType },
  { header: { 'zh-CN': '方法名称', en: 'Method name', 'zh-TW': '方法名稱' }, cell: (r) => r.methodName },
  { header: { 'zh-CN': '操作描述', en: 'Description', 'zh-TW': '操作描述' }, cell: (r) => r.methodDesc },
  { header: { 'zh-CN': '请求地址', en: 'URL', 'zh-TW': '請求位址' }, cell: (r) => r.url },
  { header: { 'zh-CN': '结果码', en: 'Result code', 'zh-TW': '結果碼' }, cell: (r) => r.resultCode },
  { header: { 'zh-CN': '参数', en: 'Arguments', 'zh-TW': '參數' }, cell: (r) => r.methodArgs },
];

export const LOGIN_LOG_COLUMNS: readonly ExportColumn<LoginLogRow>[] = [
  { header: userColumns.id, cell: (r) => r.id },
  { header: userColumns.userName, cell: (r) => r.userName },
  { header: userColumns.userId, cell: (r) => r.userId },
  { header: timeHeader('登录时间', 'Sign-in time', '登入時間'), cell: (r) => exportTime(r.loginTime) },
  { header: timeHeader('登出时间', 'Sign-out time', '登出時間'), cell: (r) => exportTime(r.logoutTime) },
  { header: userColumns.ipAddr, cell: (r) => r.ipAddr },
];

export function headerOf<Row>(columns: readonly ExportColumn<Row>[], lang: Lang): string[] {
  return columns.map((c) => c.header[lang]);
}

export function cellsOf<Row>(columns: readonly ExportColumn<Row>[]): (row: Row) => CsvCell[] {
  return (row) => columns.map((c) => c.cell(row));
}
