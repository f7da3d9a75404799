import {
  type AlarmNoticeRow,
  alarmTexts,
  csvFile,
  type DeviceAlarmRow,
  EXPORT_MAX_ROWS,
  type Lang,
  type Page,
  type PageQuery,
  ResultCode,
  type TodayWarn,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { type KeysetPosition, keysetBatches } from '../../db/keyset.ts';
import { AppError } from '../../http/app-error.ts';
import type { CsvExport } from '../../http/csv-reply.ts';
import type { SessionUser } from '../../http/request-context.ts';
import { timeRange } from '../../http/time-range.ts';
import { consoleDay } from '../../lib/console-day.ts';
import {
  cellsOf,
  type ExportColumn,
  exportFileName,
  exportTime,
  headerOf,
  timeHeader,
} from '../admin/index.ts';
import {
  type AlarmSearch,
  alarmExists,
  alarmsAfter,
  countAlarmsUpTo,
  openAlarmCount,
  queryAlarms,
} from './alarm.repository.ts';
import type { AlarmRunner } from './alarm-runner.ts';
import { SEVERITY_TEXT, STATE_TEXT } from './alarm-words.ts';
import { noticesOf } from './notice.repository.ts';

function exportColumns(lang: Lang): readonly ExportColumn<DeviceAlarmRow>[] {
  return [
    { header: timeHeader('告警时间', 'Warn time', '告警時間'), cell: (r) => exportTime(r.warnTime) },
    {
      header: { 'zh-CN': '告警内容', en: 'Content', 'zh-TW': '告警內容' },
      cell: (r) => alarmTexts(r, lang).content,
    },
    { header: { 'zh-CN': '设备名称', en: 'Device name', 'zh-TW': '設備名稱' }, cell: (r) => r.deviceName },
    { header: { 'zh-CN': '设备编码', en: 'Device code', 'zh-TW': '設備編碼' }, cell: (r) => r.deviceCode },
    {
      header: { 'zh-CN': '告警规则', en: 'Rule', 'zh-TW': '告警規則' },
      cell: (r) => alarmTexts(r, lang).ruleName,
    },
    {
      header: { 'zh-CN': '级别', en: 'Severity', 'zh-TW': '級別' },
      cell: (r) => SEVERITY_TEXT[r.severity][lang],
    },
    { header: { 'zh-CN': '状态', en: 'State', 'zh-TW': '狀態' }, cell: (r) => STATE_TEXT[r.state][lang] },
    { header: timeHeader('复位时间', 'Reset time', '復位時間'), cell: (r) => exportTime(r.resetTime) },
    { header: { 'zh-CN': '复位人', en: 'Reset by', 'zh-TW': '復位人' }, cell: (r) => r.resetStaffName },
    { header: timeHeader('确认时间', 'Acknowledged at', '確認時間'), cell: (r) => exportTime(r.ackTime) },
    { header: { 'zh-CN': '确认人', en: 'Acknowledged by', 'zh-TW': '確認人' }, cell: (r) => r.ackStaffName },
    { header: { 'zh-CN': '通知次数', en: 'Times notified', 'zh-TW': '通知次數' }, cell: (r) => r.sendCount },
  ];
}

export interface AlarmServiceOptions {
  /** Most rows one export may hold (EXPORT_MAX_ROWS; smaller in tests). */
  exportMaxRows?: number | undefined;
  /** Rows read per query while an export streams. */
  exportBatchSize?: number | undefined;
  /** Now, in milliseconds (tests move it). */
  clock?: (() => number) | undefined;
}

export type AlarmQuery = Omit<AlarmSearch, 'from' | 'to'> & { startTime?: string; endTime?: string };

/** Device alarms (spec §3, /data-statistics/warning-message): the records, and staff resetting them. */
export class AlarmService {
  constructor(
    private readonly db: Db,
    private readonly runner: AlarmRunner,
    private readonly options: AlarmServiceOptions = {},
  ) {}

  private searchOf(search: AlarmQuery, range: { start: Date | null; end: Date | null }): AlarmSearch {
    const { startTime: _start, endTime: _end, ...rest } = search;
    return { ...rest, from: range.start ?? undefined, to: range.end ?? undefined };
  }

  /** A page of alarms, a built-in alarm's texts in the reader's language. */
  async query(search: AlarmQuery, page: PageQuery, lang: Lang): Promise<Page<DeviceAlarmRow>> {
    const range = timeRange(search, { required: false, maxOneYear: false }, lang);
    const found = await queryAlarms(this.db, this.searchOf(search, range), page);
    return { total: found.total, rows: found.rows.map((row) => ({ ...row, ...alarmTexts(row, lang) })) };
  }

  /** CSV of a time range (required, at most a year), newest first, at most EXPORT_MAX_ROWS rows. */
  async export(search: AlarmQuery, lang: Lang): Promise<CsvExport> {
    const range = timeRange(search, { required: true, maxOneYear: true }, lang);
    const found = this.searchOf(search, range);
    const maxRows = this.options.exportMaxRows ?? EXPORT_MAX_ROWS;
    const batchSize = this.options.exportBatchSize ?? 1000;
    if ((await countAlarmsUpTo(this.db, found, maxRows + 1)) > maxRows) {
      throw new AppError(ResultCode.ExportTooLarge);
    }
    const rows = keysetBatches<DeviceAlarmRow, KeysetPosition<string>>(
      (after, limit) => alarmsAfter(this.db, found, after, limit),
      {
        maxRows,
        batchSize,
      },
    );
    const columns = exportColumns(lang);
    return {
      fileName: exportFileName('warning-message', range.start!, range.end!),
      content: csvFile(headerOf(columns, lang), rows, cellsOf(columns)),
    };
  }

  /** Today's alarms (the console's day), newest first, at most `limit`, and how many there are. */
  async today(limit: number): Promise<TodayWarn> {
    const now = (this.options.clock ?? Date.now)();
    const page = await queryAlarms(
      this.db,
      { from: consoleDay(now).start },
      { pageIndex: 1, pageSize: limit },
    );
    return { total: page.total, rows: page.rows };
  }

  async openCount(): Promise<{ open: number }> {
    return { open: await openAlarmCount(this.db) };
  }

  /** The notifications of an alarm with their attempts; 404 for an alarm that does not exist. */
  async notices(id: string): Promise<AlarmNoticeRow[]> {
    if (!(await alarmExists(this.db, id))) throw new AppError(ResultCode.NotFound);
    return noticesOf(this.db, id);
  }

  reset(id: string, user: SessionUser): Promise<void> {
    return this.runner.reset(id, { staffId: user.staffId, staffName: user.staffName });
  }

  acknowledge(id: string, user: SessionUser): Promise<void> {
    return this.runner.acknowledge(id, { staffId: user.staffId, staffName: user.staffName });
  }
}
