import type { AlarmChange, DeviceAlarmRow, Page, PageQuery } from '@uiot/contracts';
import { and, count, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { countUpTo, type KeysetPosition, olderThan, positionTime } from '../../db/keyset.ts';
import { containsText, paged } from '../../db/paging.ts';
import { device } from '../devices/devices.schema.ts';
import { deviceAlarm } from './alarms.schema.ts';

export interface AlarmSearch {
  from?: Date | undefined;
  to?: Date | undefined;
  state?: DeviceAlarmRow['state'] | undefined;
  severity?: DeviceAlarmRow['severity'] | undefined;
  deviceId?: string | undefined;
  deviceName?: string | undefined;
}

const alarmColumns = {
  id: deviceAlarm.id,
  deviceId: deviceAlarm.deviceId,
  deviceName: device.name,
  deviceCode: device.code,
  ruleId: deviceAlarm.ruleId,
  ruleName: deviceAlarm.ruleName,
  content: deviceAlarm.content,
  severity: deviceAlarm.severity,
  propOrigin: deviceAlarm.propOrigin,
  propName: deviceAlarm.propName,
  state: deviceAlarm.state,
  canReset: deviceAlarm.canReset,
  warnTime: deviceAlarm.warnTime,
  resetTime: deviceAlarm.resetTime,
  resetStaffName: deviceAlarm.resetStaffName,
  ackTime: deviceAlarm.ackTime,
  ackStaffName: deviceAlarm.ackStaffName,
  sendCount: deviceAlarm.sendCount,
};

const sortable = {
  warnTime: deviceAlarm.warnTime,
  resetTime: deviceAlarm.resetTime,
  deviceName: device.name,
  severity: deviceAlarm.severity,
  state: deviceAlarm.state,
};

function whereOf(search: AlarmSearch): SQL | undefined {
  return and(
    search.from ? gte(deviceAlarm.warnTime, search.from) : undefined,
    search.to ? lte(deviceAlarm.warnTime, search.to) : undefined,
    search.state ? eq(deviceAlarm.state, search.state) : undefined,
    search.severity ? eq(deviceAlarm.severity, search.severity) : undefined,
    search.deviceId ? eq(deviceAlarm.deviceId, search.deviceId) : undefined,
    search.deviceName ? containsText(device.name, search.deviceName) : undefined,
  );
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

type Selected = Omit<DeviceAlarmRow, 'warnTime' | 'resetTime' | 'ackTime'> & {
  warnTime: Date;
  resetTime: Date | null;
  ackTime: Date | null;
};

const toRow = (r: Selected): DeviceAlarmRow => ({
  ...r,
  warnTime: r.warnTime.toISOString(),
  resetTime: iso(r.resetTime),
  ackTime: iso(r.ackTime),
});

export async function queryAlarms(
  db: Db,
  search: AlarmSearch,
  page: PageQuery,
): Promise<Page<DeviceAlarmRow>> {
  const query = db
    .select(alarmColumns)
    .from(deviceAlarm)
    .innerJoin(device, eq(device.id, deviceAlarm.deviceId))
    .where(whereOf(search))
    .$dynamic();
  const result = await paged(db, query, sortable, page, {
    defaultSort: { by: 'warnTime', ascending: false },
    tieBreaker: deviceAlarm.id,
  });
  return { total: result.total, rows: result.rows.map(toRow) };
}

/** How many alarms the search finds, counted no further than `cap`. */
export function countAlarmsUpTo(db: Db, search: AlarmSearch, cap: number): Promise<number> {
  const rows = db
    .select({ one: sql`1`.as('one') })
    .from(deviceAlarm)
    .innerJoin(device, eq(device.id, deviceAlarm.deviceId))
    .where(whereOf(search))
    .$dynamic();
  return countUpTo(db, rows, cap);
}

/** Up to `limit` alarms of the search after `after`, newest first, each with its position. */
export async function alarmsAfter(
  db: Db,
  search: AlarmSearch,
  after: KeysetPosition<string> | null,
  limit: number,
): Promise<Array<{ row: DeviceAlarmRow; position: KeysetPosition<string> }>> {
  const found = await db
    .select({ ...alarmColumns, timeText: positionTime(deviceAlarm.warnTime) })
    .from(deviceAlarm)
    .innerJoin(device, eq(device.id, deviceAlarm.deviceId))
    .where(and(whereOf(search), olderThan(deviceAlarm.warnTime, deviceAlarm.id, after)))
    .orderBy(desc(deviceAlarm.warnTime), desc(deviceAlarm.id))
    .limit(limit);
  return found.map(({ timeText, ...r }) => ({ row: toRow(r), position: { time: timeText, id: r.id } }));
}

export async function openAlarmCount(db: Db): Promise<number> {
  const [row] = await db.select({ open: count() }).from(deviceAlarm).where(eq(deviceAlarm.state, 'Warn'));
  return row?.open ?? 0;
}

/** The alarms as they now stand, with their station, for the console topics. */
export async function alarmChanges(
  db: Db,
  ids: readonly string[],
): Promise<{ stationId: string; change: AlarmChange }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      stationId: deviceAlarm.stationId,
      id: deviceAlarm.id,
      deviceId: deviceAlarm.deviceId,
      deviceName: device.name,
      ruleName: deviceAlarm.ruleName,
      content: deviceAlarm.content,
      severity: deviceAlarm.severity,
      state: deviceAlarm.state,
      warnTime: deviceAlarm.warnTime,
      resetTime: deviceAlarm.resetTime,
      ackTime: deviceAlarm.ackTime,
      sendCount: deviceAlarm.sendCount,
    })
    .from(deviceAlarm)
    .innerJoin(device, eq(device.id, deviceAlarm.deviceId))
    .where(inArray(deviceAlarm.id, [...ids]))
    .orderBy(deviceAlarm.warnTime, deviceAlarm.id);
  return rows.map(({ stationId, ...r }) => ({
    stationId,
    change: {
      ...r,
      warnTime: r.warnTime.toISOString(),
      resetTime: iso(r.resetTime),
      ackTime: iso(r.ackTime),
    },
  }));
}

export async function alarmExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: deviceAlarm.id }).from(deviceAlarm).where(eq(deviceAlarm.id, id));
  return row !== undefined;
}
