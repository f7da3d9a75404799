import type {
  AttachmentForm,
  AttachmentRow,
  DeviceCategory,
  DeviceData,
  DeviceForm,
  DeviceSearch,
  IotType,
  NetType,
  OpenState,
  Page,
  PageQuery,
  RunState,
} from '@uiot/contracts';
import { and, asc, count, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { pageOrder } from '../../db/paging.ts';
import { device, deviceType, operationUnit } from './devices.schema.ts';
import {
  countLedger,
  LEDGER_DEFAULT_SORT,
  ledgerColumns,
  ledgerSearch,
  selectLedger,
  selectLedgerPage,
} from './ledger-query.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const num = (v: string | null) => (v === null ? null : Number(v));

const selectDeviceRows = (db: Db, where: SQL | undefined) => selectLedger(db, ledgerColumns, where);

type DeviceRecord = Awaited<ReturnType<typeof selectDeviceRows>>[number];

const toDeviceRow = (r: DeviceRecord): DeviceData => ({
  ...r,
  lng: num(r.lng),
  lat: num(r.lat),
  status: r.status as RunState,
  category: r.category as DeviceCategory,
  iotType: r.iotType as IotType | null,
  lockStatus: r.lockStatus as OpenState,
  netType: r.netType as NetType | null,
  attachmentCount: Number(r.attachmentCount),
  registTime: iso(r.registTime),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/**
 * The main devices of the ledger; every column of the row is a sort key. The page's rows are chosen before
 * anything is joined to them; the total counts the device table alone.
 */
export async function queryDevices(db: Db, search: DeviceSearch, page: PageQuery): Promise<Page<DeviceData>> {
  const order = pageOrder(ledgerColumns, page, {
    defaultSort: { by: LEDGER_DEFAULT_SORT, ascending: true },
    tieBreaker: device.id,
  });
  const where = ledgerSearch(search);
  const rows = await selectLedgerPage(db, ledgerColumns, where, order.orderBy, {
    limit: page.pageSize,
    offset: order.offset,
  });
  // A page that is not full, and holds rows or is the first, is the last one: its end is the total.
  const last = rows.length < page.pageSize && (rows.length > 0 || order.offset === 0);
  const total = last ? order.offset + rows.length : await countLedger(db, where);
  return { total, rows: rows.map(toDeviceRow) };
}

export async function deviceRowById(db: Db, id: string): Promise<DeviceData | undefined> {
  const [row] = await selectDeviceRows(db, eq(device.id, id));
  return row && toDeviceRow(row);
}

/** What the rules of the ledger need to know of a device. */
export interface DeviceState {
  id: string;
  typeId: string;
  code: string | null;
  regist: boolean;
  mainDeviceId: string | null;
  unitId: string;
  stationId: string;
  /** What makes it an IoT lock (`isIotDevice`). */
  category: DeviceCategory;
  iotType: IotType | null;
  netType: NetType | null;
  imei: string | null;
  devEUI: string | null;
}

const stateColumns = {
  id: device.id,
  typeId: device.typeId,
  code: device.code,
  regist: device.regist,
  mainDeviceId: device.mainDeviceId,
  unitId: device.unitId,
  stationId: device.stationId,
  category: sql<DeviceCategory>`${device.category}`,
  iotType: sql<IotType | null>`${device.iotType}`,
  netType: sql<NetType | null>`${device.netType}`,
  imei: device.imei,
  devEUI: device.devEui,
};

/**
 * The device; with `lock`, its row stays locked until the transaction ends: `update` for a change of the
 * device itself (delete, register), `share` for adding something under it (an attached device, a lock
 * code), so a concurrent delete either sees the addition or makes it fail.
 */
export async function deviceState(
  db: Db,
  id: string,
  lock?: 'update' | 'share',
): Promise<DeviceState | undefined> {
  const query = db.select(stateColumns).from(device).where(eq(device.id, id)).$dynamic();
  const [row] = await (lock ? query.for(lock) : query);
  return row;
}

export async function attachmentCountOf(db: Db, mainDeviceId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(device).where(eq(device.mainDeviceId, mainDeviceId));
  return row?.n ?? 0;
}

/** The unit a device goes into, locked against deletion until the transaction ends. */
export async function unitForDevice(db: Db, id: string): Promise<{ stationId: string } | undefined> {
  const [row] = await db
    .select({ stationId: operationUnit.stationId })
    .from(operationUnit)
    .where(eq(operationUnit.id, id))
    .for('share');
  return row;
}

/**
 * Whether devices belong to the unit. The unit's row is locked first, so a device being added to it
 * concurrently is either counted here or refused there (its unit gone).
 */
export async function unitHasDevices(db: Db, unitId: string): Promise<boolean> {
  await db
    .select({ id: operationUnit.id })
    .from(operationUnit)
    .where(eq(operationUnit.id, unitId))
    .for('update');
  const [row] = await db.select({ id: device.id }).from(device).where(eq(device.unitId, unitId)).limit(1);
  return row !== undefined;
}

/** The category of the type a device is given, the type locked against deletion until the transaction ends. */
export async function typeCategory(db: Db, id: string): Promise<DeviceCategory | undefined> {
  const [row] = await db
    .select({ category: deviceType.category })
    .from(deviceType)
    .where(eq(deviceType.id, id))
    .for('share');
  return row?.category as DeviceCategory | undefined;
}

/** The identifiers unique over the ledger (main and attached devices alike), by their form field. */
export interface DeviceIdentifiers {
  code?: string | null | undefined;
  imei?: string | null | undefined;
  devEUI?: string | null | undefined;
}

const identifierColumns = { code: device.code, imei: device.imei, devEUI: device.devEui } as const;

/** The first identifier another device already has, or undefined when all are free. */
export async function takenIdentifier(
  db: Db,
  ids: DeviceIdentifiers,
  exceptId?: string,
): Promise<string | undefined> {
  for (const field of ['code', 'imei', 'devEUI'] as const) {
    const value = ids[field];
    if (!value) continue;
    const [row] = await db
      .select({ id: device.id })
      .from(device)
      .where(and(eq(identifierColumns[field], value), exceptId ? ne(device.id, exceptId) : undefined))
      .limit(1);
    if (row) return value;
  }
  return undefined;
}

const identifierIndexes: Record<string, keyof DeviceIdentifiers> = {
  device_code_key: 'code',
  device_imei_key: 'imei',
  device_dev_eui_key: 'devEUI',
};

/** The identifier behind a violation of one of the ledger's unique indexes, if the error is one. */
export function identifierOfViolation(error: unknown, ids: DeviceIdentifiers): string | undefined {
  if (!isUniqueViolation(error)) return undefined;
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const field = identifierIndexes[String((e as { constraint?: unknown }).constraint)];
    if (field) return ids[field] ?? undefined;
  }
  return undefined;
}

export type DeviceValues = Omit<typeof device.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** The columns a device form sets; the category is resolved by the service. */
export function deviceFormColumns(form: DeviceForm, category: DeviceCategory, stationId: string) {
  return {
    name: form.name,
    code: form.code ?? null,
    sbbh: form.sbbh ?? null,
    adCode: form.adCode ?? null,
    bayId: form.bayId ?? null,
    lng: form.lng == null ? null : String(form.lng),
    lat: form.lat == null ? null : String(form.lat),
    isDrawTool: form.isDrawTool,
    stationId,
    status: form.status,
    unitId: form.unitId,
    typeId: form.typeId,
    category,
    voltage: form.voltage ?? null,
    deptId: form.deptId ?? null,
    staffId: form.staffId ?? null,
    description: form.desc ?? null,
    extra1: form.extra1 ?? null,
    extra2: form.extra2 ?? null,
    graphId: form.graphId ?? null,
    idxNo: form.idxNo ?? null,
    imei: form.imei ?? null,
    imsi: form.imsi ?? null,
    appKey: form.appKey ?? null,
    iotType: form.iotType ?? null,
    netType: form.netType ?? null,
    noState: form.noState,
    noWorking: form.noWorking,
    addr: form.addr ?? null,
    secondId: form.secondId ?? null,
    kmInfo: form.kmInfo ?? null,
    line: form.line ?? null,
    track: form.track ?? null,
    door: form.door ?? null,
    appEui: form.appEUI ?? null,
    devEui: form.devEUI ?? null,
    productId: form.productId ?? null,
    platName: form.platName ?? null,
  } satisfies DeviceValues;
}

/** An attached device: in the unit and station of its main device, never registered on its own. */
export function attachmentColumns(
  form: AttachmentForm,
  category: DeviceCategory,
  main: Pick<DeviceState, 'unitId' | 'stationId'>,
) {
  return {
    name: form.name,
    imei: form.imei ?? null,
    imsi: form.imsi ?? null,
    typeId: form.typeId,
    category,
    iotType: form.iotType ?? null,
    mainDeviceId: form.mainDeviceId,
    unitId: main.unitId,
    stationId: main.stationId,
  } satisfies DeviceValues;
}

export async function insertDevices(db: Db, rows: (DeviceValues & { id: string })[]): Promise<void> {
  if (rows.length > 0) await db.insert(device).values(rows);
}

export async function insertDevice(db: Db, values: DeviceValues): Promise<string> {
  const [row] = await db.insert(device).values(values).returning({ id: device.id });
  return row!.id;
}

export async function updateDeviceRow(db: Db, id: string, values: Partial<DeviceValues>): Promise<void> {
  await db
    .update(device)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(device.id, id));
}

/** Attached devices stay in the unit (and station) of their main device. */
export async function moveAttachments(db: Db, mainDeviceId: string, unitId: string, stationId: string) {
  await db
    .update(device)
    .set({ unitId, stationId, updatedAt: new Date() })
    .where(eq(device.mainDeviceId, mainDeviceId));
}

/** Lock codes, correction values, the password and replacements go with the device (cascading keys). */
export async function deleteDeviceRow(db: Db, id: string): Promise<void> {
  await db.delete(device).where(eq(device.id, id));
}

/** Sets the registration; false when the device was already in that state (or does not exist). */
export async function setRegistration(db: Db, id: string, regist: boolean): Promise<boolean> {
  const changed = await db
    .update(device)
    .set({ regist, registTime: regist ? new Date() : null, updatedAt: new Date() })
    .where(and(eq(device.id, id), eq(device.regist, !regist)))
    .returning({ id: device.id });
  return changed.length > 0;
}

export async function listAttachments(db: Db, mainDeviceId: string): Promise<AttachmentRow[]> {
  const rows = await db
    .select({
      id: device.id,
      mainDeviceId: device.mainDeviceId,
      name: device.name,
      imei: device.imei,
      imsi: device.imsi,
      typeId: device.typeId,
      typeName: deviceType.name,
      category: device.category,
      iotType: device.iotType,
      createdAt: device.createdAt,
    })
    .from(device)
    .leftJoin(deviceType, eq(deviceType.id, device.typeId))
    .where(eq(device.mainDeviceId, mainDeviceId))
    .orderBy(asc(device.createdAt), asc(device.id));
  return rows.map((r) => ({
    ...r,
    mainDeviceId: r.mainDeviceId!,
    category: r.category as DeviceCategory,
    iotType: r.iotType as IotType | null,
    createdAt: r.createdAt.toISOString(),
  }));
}
