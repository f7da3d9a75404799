import {
  type BatteryBand,
  type BatteryBandScale,
  offlineSeconds,
  type Page,
  type PageQuery,
  type RuntimeRow,
  type RuntimeSummary,
} from '@uiot/contracts';
import { and, eq, gte, isNull, lt, not, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsText, pageOrder } from '../../db/paging.ts';
import { device, deviceType, operationUnit } from '../devices/devices.schema.ts';
import { type DeviceOperator, inUnitTree, mayOperateDeviceType, ofTypeTree } from '../devices/index.ts';
import { deviceRuntime } from './iot.schema.ts';

export interface RuntimeSearch {
  name?: string | undefined;
  code?: string | undefined;
  unitId?: string | undefined;
  typeId?: string | undefined;
  online?: 'true' | 'false' | undefined;
  lockState?: 'open' | 'closed' | 'unknown' | undefined;
  doorState?: 'open' | 'closed' | 'unknown' | undefined;
  runState?: RuntimeRow['runState'] | undefined;
  batteryBand?: BatteryBand | undefined;
}

const columns = {
  deviceId: device.id,
  deviceName: device.name,
  deviceCode: device.code,
  stationId: device.stationId,
  unitId: device.unitId,
  unitName: operationUnit.name,
  typeId: device.typeId,
  typeName: deviceType.name,
  // The main type above a sub type, for the DevTypeOp rule.
  mainTypeId: sql<string>`coalesce(${deviceType.parentId}, ${device.typeId})`,
  lockState: deviceRuntime.lockState,
  doorState: deviceRuntime.doorState,
  online: deviceRuntime.online,
  battery: deviceRuntime.battery,
  lastCollectTime: deviceRuntime.lastCollectTime,
  offlineSince: deviceRuntime.offlineSince,
  runState: deviceRuntime.runState,
  rssi: deviceRuntime.rssi,
  devEui: sql<string | null>`coalesce(${deviceRuntime.devEui}, ${device.devEui})`,
  props: deviceRuntime.props,
};

/** The offline time in whole seconds at `now`, as `offlineSeconds` (contracts) counts it, online at 0. */
function offlineSecondsAt(now: Date): SQL {
  const since = sql`coalesce(${deviceRuntime.offlineSince}, ${deviceRuntime.lastCollectTime})`;
  // greatest() skips nulls: a device never heard from keeps its null apart from the clamp.
  return sql`case when coalesce(${deviceRuntime.online}, false) then 0 when ${since} is null then null
    else greatest(0, floor(extract(epoch from (${now.toISOString()}::timestamptz - ${since})))) end`;
}

/**
 * What the table sorts by, under the names of its columns: the value each column shows, so a device that
 * never reported sorts as the states it is shown with (`unknown`, offline, `normal`), and the offline time
 * by its seconds at `now` as `offlineSeconds` counts them (an online device at 0, one never heard from
 * without a time, so last ascending).
 */
function sortable(now: Date) {
  return {
    deviceName: device.name,
    deviceCode: device.code,
    unitName: operationUnit.name,
    typeName: deviceType.name,
    lockState: sql`coalesce(${deviceRuntime.lockState}, 'unknown')`,
    doorState: sql`coalesce(${deviceRuntime.doorState}, 'unknown')`,
    online: sql`coalesce(${deviceRuntime.online}, false)`,
    battery: deviceRuntime.battery,
    lastCollectTime: deviceRuntime.lastCollectTime,
    offlineSeconds: offlineSecondsAt(now),
    runState: sql`coalesce(${deviceRuntime.runState}, 'normal')`,
    rssi: deviceRuntime.rssi,
  };
}

/** A state column that is `unknown` until reported. */
function stateIs(
  column: typeof deviceRuntime.lockState | typeof deviceRuntime.doorState,
  state: 'open' | 'closed' | 'unknown',
): SQL {
  return state === 'unknown' ? isNull(column) : eq(column, state);
}

/** The battery of a band, on the scale of the power levels: low < lowBelow ≤ medium < highFrom ≤ high. */
function batteryIn(band: BatteryBand, scale: BatteryBandScale): SQL | undefined {
  const battery = deviceRuntime.battery;
  if (band === 'low') return lt(battery, scale.lowBelow);
  if (band === 'high') return gte(battery, scale.highFrom);
  return and(gte(battery, scale.lowBelow), lt(battery, scale.highFrom));
}

function where(search: RuntimeSearch, scale: BatteryBandScale): SQL | undefined {
  return and(
    eq(device.regist, true),
    search.name ? containsText(device.name, search.name) : undefined,
    search.code ? containsText(device.code, search.code) : undefined,
    search.unitId ? inUnitTree(search.unitId) : undefined,
    search.typeId ? ofTypeTree(search.typeId) : undefined,
    search.online === 'true' ? eq(deviceRuntime.online, true) : undefined,
    search.online === 'false' ? or(isNull(deviceRuntime.online), not(deviceRuntime.online)) : undefined,
    search.lockState ? stateIs(deviceRuntime.lockState, search.lockState) : undefined,
    search.doorState ? stateIs(deviceRuntime.doorState, search.doorState) : undefined,
    search.runState === 'normal'
      ? or(isNull(deviceRuntime.runState), eq(deviceRuntime.runState, 'normal'))
      : search.runState
        ? eq(deviceRuntime.runState, search.runState)
        : undefined,
    search.batteryBand ? batteryIn(search.batteryBand, scale) : undefined,
  );
}

interface Selected {
  deviceId: string;
  deviceName: string;
  deviceCode: string | null;
  stationId: string;
  unitId: string;
  unitName: string | null;
  typeId: string;
  typeName: string | null;
  mainTypeId: string;
  lockState: string | null;
  doorState: string | null;
  online: boolean | null;
  battery: number | null;
  lastCollectTime: Date | null;
  offlineSince: Date | null;
  runState: string | null;
  rssi: number | null;
  devEui: string | null;
  props: RuntimeRow['props'] | null;
}

function toRow(r: Selected, now: Date, operator: DeviceOperator): RuntimeRow {
  const online = r.online ?? false;
  return {
    deviceId: r.deviceId,
    deviceName: r.deviceName,
    deviceCode: r.deviceCode,
    stationId: r.stationId,
    unitId: r.unitId,
    unitName: r.unitName,
    typeId: r.typeId,
    typeName: r.typeName,
    lockState: (r.lockState ?? 'unknown') as RuntimeRow['lockState'],
    doorState: (r.doorState ?? 'unknown') as RuntimeRow['doorState'],
    online,
    battery: r.battery === null ? null : Number(r.battery),
    lastCollectTime: r.lastCollectTime?.toISOString() ?? null,
    offlineSeconds: offlineSeconds(online, r.offlineSince, r.lastCollectTime, now),
    offlineSince: online ? null : (r.offlineSince?.toISOString() ?? null),
    runState: (r.runState ?? 'normal') as RuntimeRow['runState'],
    rssi: r.rssi === null ? null : Number(r.rssi),
    devEui: r.devEui,
    props: r.props ?? {},
    abilities: { operate: mayOperateDeviceType(operator, r) },
  };
}

/** The monitor's battery bands: the power levels' (the levels module's service). */
export interface BatteryBands {
  batteryBands(): Promise<BatteryBandScale>;
}

/**
 * Runtime data (spec §3) of registered devices: the state the IoT pipeline keeps, with the ledger's names
 * and what the reader may do with each device.
 */
export class RuntimeService {
  constructor(
    private readonly db: Db,
    private readonly bands: BatteryBands,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private select() {
    return this.db
      .select(columns)
      .from(device)
      .leftJoin(deviceRuntime, eq(deviceRuntime.deviceId, device.id))
      .leftJoin(operationUnit, eq(operationUnit.id, device.unitId))
      .leftJoin(deviceType, eq(deviceType.id, device.typeId));
  }

  async query(search: RuntimeSearch & PageQuery, operator: DeviceOperator): Promise<Page<RuntimeRow>> {
    const now = this.now();
    const order = pageOrder(sortable(now), search, {
      defaultSort: { by: 'deviceName', ascending: true },
      tieBreaker: device.id,
    });
    const filter = where(search, await this.bands.batteryBands());
    // Together: on the embedded database a page then waits for the ingest batch ahead of it once.
    const [[counted], rows] = await Promise.all([
      this.db
        .select({ total: sql<number>`count(*)::int` })
        .from(device)
        .leftJoin(deviceRuntime, eq(deviceRuntime.deviceId, device.id))
        .where(filter),
      this.select()
        .where(filter)
        .orderBy(...order.orderBy)
        .limit(search.pageSize)
        .offset(order.offset),
    ]);
    return { rows: rows.map((r) => toRow(r, now, operator)), total: Number(counted?.total ?? 0) };
  }

  /** The monitor's counters, in one pass over the registered devices. */
  async summary(): Promise<RuntimeSummary> {
    const scale = await this.bands.batteryBands();
    const count = (condition?: SQL) =>
      condition ? sql<number>`count(*) filter (where ${condition})::int` : sql<number>`count(*)::int`;
    const [counted] = await this.db
      .select({
        total: count(),
        online: count(eq(deviceRuntime.online, true)),
        doorOpen: count(eq(deviceRuntime.doorState, 'open')),
        lockOpen: count(eq(deviceRuntime.lockState, 'open')),
        lowBattery: count(batteryIn('low', scale)),
        abnormal: count(not(eq(deviceRuntime.runState, 'normal'))),
      })
      .from(device)
      .leftJoin(deviceRuntime, eq(deviceRuntime.deviceId, device.id))
      .where(eq(device.regist, true));
    const total = Number(counted?.total ?? 0);
    const online = Number(counted?.online ?? 0);
    return {
      total,
      online,
      // Devices that never reported count as offline, as the online filter reads them.
      offline: total - online,
      doorOpen: Number(counted?.doorOpen ?? 0),
      lockOpen: Number(counted?.lockOpen ?? 0),
      lowBattery: Number(counted?.lowBattery ?? 0),
      abnormal: Number(counted?.abnormal ?? 0),
    };
  }

  async byDevice(deviceId: string, operator: DeviceOperator): Promise<RuntimeRow | null> {
    const [row] = await this.select().where(and(eq(device.id, deviceId), eq(device.regist, true)));
    return row ? toRow(row, this.now(), operator) : null;
  }
}
