import {
  csvFile,
  type DeviceHistoryRow,
  EXPORT_MAX_ROWS,
  type Lang,
  type Page,
  type PageQuery,
  ResultCode,
} from '@uiot/contracts';
import { type DeviceProtocol, decodeRecordedReport } from '@uiot/device-protocol';
import { and, desc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { countUpTo, type KeysetPosition, keysetBatches, olderThan, positionTime } from '../../db/keyset.ts';
import { containsText, pageOrder } from '../../db/paging.ts';
import { AppError } from '../../http/app-error.ts';
import type { CsvExport } from '../../http/csv-reply.ts';
import { timeRange } from '../../http/time-range.ts';
import {
  cellsOf,
  type ExportColumn,
  exportFileName,
  exportTime,
  headerOf,
  timeHeader,
} from '../admin/index.ts';
import { device } from '../devices/devices.schema.ts';
import { deviceHistory } from './iot.schema.ts';

export interface DeviceHistorySearch {
  startTime?: string | undefined;
  endTime?: string | undefined;
  deviceId?: string | undefined;
  deviceName?: string | undefined;
}

/**
 * The records of one device, by its number (the key of the history's indexes): a device deleted since has
 * none to show.
 */
export function historyOfDevice(deviceId: string): SQL {
  return sql`${deviceHistory.deviceSeq} = (select ${device.seq} from ${device} where ${device.id} = ${deviceId})`;
}

/** Totals are counted no further than this: a network writes millions of records, a page needs a bound. */
export const HISTORY_COUNT_CAP = 100_000;

const columns = {
  id: deviceHistory.id,
  deviceId: deviceHistory.deviceId,
  deviceName: device.name,
  deviceCode: device.code,
  protocol: deviceHistory.protocol,
  messageId: deviceHistory.messageId,
  reportTime: deviceHistory.reportTime,
  receiveTime: deviceHistory.receiveTime,
  raw: deviceHistory.raw,
  content: deviceHistory.content,
};

interface Selected {
  id: number;
  deviceId: string;
  deviceName: string | null;
  deviceCode: string | null;
  protocol: string;
  messageId: string;
  reportTime: Date;
  receiveTime: Date;
  raw: string;
  content: unknown;
}

const toRow = (r: Selected): DeviceHistoryRow => ({
  id: String(r.id),
  deviceId: r.deviceId,
  deviceName: r.deviceName,
  deviceCode: r.deviceCode,
  protocol: r.protocol as DeviceHistoryRow['protocol'],
  messageId: r.messageId,
  reportTime: r.reportTime.toISOString(),
  receiveTime: r.receiveTime.toISOString(),
  rawMessage: r.raw,
  content: JSON.stringify(r.content ?? decodeRecordedReport(r.protocol as DeviceProtocol, r.raw)),
});

const EXPORT_COLUMNS: readonly ExportColumn<DeviceHistoryRow>[] = [
  { header: timeHeader('上报时间', 'Report time', '上報時間'), cell: (r) => exportTime(r.reportTime) },
  { header: { 'zh-CN': '设备名称', en: 'Device name', 'zh-TW': '設備名稱' }, cell: (r) => r.deviceName },
  { header: { 'zh-CN': '设备编码', en: 'Device code', 'zh-TW': '設備編碼' }, cell: (r) => r.deviceCode },
  { header: { 'zh-CN': '协议', en: 'Protocol', 'zh-TW': '協議' }, cell: (r) => r.protocol },
  { header: { 'zh-CN': '消息 ID', en: 'Message ID', 'zh-TW': '訊息 ID' }, cell: (r) => r.messageId },
  { header: timeHeader('接收时间', 'Receive time', '接收時間'), cell: (r) => exportTime(r.receiveTime) },
  { header: { 'zh-CN': '原始报文', en: 'Raw message', 'zh-TW': '原始報文' }, cell: (r) => r.rawMessage },
  { header: { 'zh-CN': '解析内容', en: 'Content', 'zh-TW': '解析內容' }, cell: (r) => r.content },
];

/** Telemetry records (spec §2 /data-statistics/iot-message, §3 Device history): search, export, retention. */
export class DeviceHistoryService {
  constructor(
    private readonly db: Db,
    private readonly options: { exportMaxRows?: number; exportBatchSize?: number } = {},
  ) {}

  private where(
    search: DeviceHistorySearch,
    range: { start: Date | null; end: Date | null },
  ): SQL | undefined {
    return and(
      range.start ? gte(deviceHistory.reportTime, range.start) : undefined,
      range.end ? lte(deviceHistory.reportTime, range.end) : undefined,
      search.deviceId ? historyOfDevice(search.deviceId) : undefined,
      search.deviceName ? containsText(device.name, search.deviceName) : undefined,
    );
  }

  private select() {
    return this.db
      .select(columns)
      .from(deviceHistory)
      .leftJoin(device, eq(device.id, deviceHistory.deviceId));
  }

  async query(search: DeviceHistorySearch & PageQuery, lang: Lang): Promise<Page<DeviceHistoryRow>> {
    const range = timeRange(search, { required: false, maxOneYear: false }, lang);
    const filter = this.where(search, range);
    const order = pageOrder(
      { reportTime: deviceHistory.reportTime, receiveTime: deviceHistory.receiveTime },
      search,
      { defaultSort: { by: 'reportTime', ascending: false }, tieBreaker: deviceHistory.id },
    );
    const bounded = this.db
      .select({ one: sql`1`.as('one') })
      .from(deviceHistory)
      .leftJoin(device, eq(device.id, deviceHistory.deviceId))
      .where(filter)
      .limit(HISTORY_COUNT_CAP)
      .as('bounded');
    const [counted] = await this.db.select({ n: sql<number>`count(*)::int` }).from(bounded);
    const rows = await this.select()
      .where(filter)
      .orderBy(...order.orderBy)
      .limit(search.pageSize)
      .offset(order.offset);
    return { rows: rows.map(toRow), total: Number(counted?.n ?? 0) };
  }

  /** CSV of a time range (required, at most a year), newest first, at most EXPORT_MAX_ROWS rows. */
  async export(search: DeviceHistorySearch, lang: Lang): Promise<CsvExport> {
    const range = timeRange(search, { required: true, maxOneYear: true }, lang);
    const filter = this.where(search, range);
    const maxRows = this.options.exportMaxRows ?? EXPORT_MAX_ROWS;
    const batchSize = this.options.exportBatchSize ?? 1000;
    const matching = this.db
      .select({ one: sql`1`.as('one') })
      .from(deviceHistory)
      .leftJoin(device, eq(device.id, deviceHistory.deviceId))
      .where(filter)
      .$dynamic();
    if ((await countUpTo(this.db, matching, maxRows + 1)) > maxRows) {
      throw new AppError(ResultCode.ExportTooLarge);
    }
    const read = async (after: KeysetPosition<number> | null, limit: number) => {
      const found = await this.db
        .select({ ...columns, timeText: positionTime(deviceHistory.reportTime) })
        .from(deviceHistory)
        .leftJoin(device, eq(device.id, deviceHistory.deviceId))
        .where(and(filter, olderThan(deviceHistory.reportTime, deviceHistory.id, after)))
        .orderBy(desc(deviceHistory.reportTime), desc(deviceHistory.id))
        .limit(limit);
      return found.map(({ timeText, ...r }) => ({ row: toRow(r), position: { time: timeText, id: r.id } }));
    };
    const rows = keysetBatches(read, { maxRows, batchSize });
    return {
      fileName: exportFileName('iot-message', range.start!, range.end!),
      content: csvFile(headerOf(EXPORT_COLUMNS, lang), rows, cellsOf(EXPORT_COLUMNS)),
    };
  }

  /**
   * Deletes records reported before `cutoff`, a bounded number per statement so the table is never locked
   * for long; returns how many went.
   */
  async purgeBefore(cutoff: Date, chunk = 10_000): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await this.db.execute(sql`
        delete from device_history where id in (
          select id from device_history where report_time < ${cutoff} order by report_time limit ${chunk})`);
      const removed = Number(
        (result as { rowCount?: number; affectedRows?: number }).rowCount ??
          (result as { affectedRows?: number }).affectedRows ??
          0,
      );
      total += removed;
      if (removed < chunk) return total;
    }
  }
}
