import type {
  AttachmentForm,
  AttachmentRow,
  DeviceCategory,
  DeviceForm,
  DeviceRow,
  DeviceSearch,
  IotType,
  NetType,
  OpenState,
  Page,
  PageQuery,
  RunState,
} from '@uiot/contracts';
import { and, asc, count, eq, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { containsText, paged } from '../../db/paging.ts';
import { department, staff } from '../org/org.schema.ts';
import { device, deviceType, operationUnit } from './devices.schema.ts';

/** The main type of a device: the type itself, or the main type above a sub type. */
const mainType = alias(deviceType, 'main_type');

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const num = (v: string | null) => (v === null ? null : Number(v));

/** The columns of a ledger row, each also a sort key of the same name. */
const deviceRowColumns = {
  id: device.id,
  name: device.name,
  code: device.code,
  sbbh: device.sbbh,
  adCode: device.adCode,
  bayId: device.bayId,
  lng: device.lng,
  lat: device.lat,
  isDrawTool: device.isDrawTool,
  stationId: device.stationId,
  status: device.status,
  unitId: device.unitId,
  unitName: operationUnit.name,
  typeId: device.typeId,
  typeName: deviceType.name,
  devTypeCode: deviceType.code,
  mainTypeId: mainType.id,
  mainTypeName: mainType.name,
  category: device.category,
  voltage: device.voltage,
  deptId: device.deptId,
  deptName: department.name,
  staffId: device.staffId,
  staffName: staff.name,
  desc: device.description,
  extra1: device.extra1,
  extra2: device.extra2,
  graphId: device.graphId,
  idxNo: device.idxNo,
  imei: device.imei,
  imsi: device.imsi,
  appKey: device.appKey,
  iotType: device.iotType,
  lockStatus: device.lockStatus,
  mainDeviceId: device.mainDeviceId,
  netType: device.netType,
  noState: device.noState,
  noWorking: device.noWorking,
  addr: device.addr,
  secondId: device.secondId,
  kmInfo: device.kmInfo,
  line: device.line,
  track: device.track,
  door: device.door,
  regist: device.regist,
  registTime: device.registTime,
  appEUI: device.appEui,
  devEUI: device.devEui,
  productId: device.productId,
  platName: device.platName,
  camera: device.camera,
  preSet: device.preSet,
  attachmentCount: sql<number>`(select count(*)::int from ${device} as attached where attached.main_device_id = ${device.id})`,
  createdAt: device.createdAt,
  updatedAt: device.updatedAt,
};

function selectDeviceRows(db: Db, where: SQL | undefined) {
  return db
    .select(deviceRowColumns)
    .from(device)
    .leftJoin(operationUnit, eq(operationUnit.id, device.unitId))
    .leftJoin(deviceType, eq(deviceType.id, device.typeId))
    .leftJoin(mainType, eq(mainType.id, sql`coalesce(${deviceType.parentId}, ${deviceType.id})`))
    .leftJoin(department, eq(department.id, device.deptId))
    .leftJoin(staff, eq(staff.id, device.staffId))
    .where(where)
    .$dynamic();
}

type DeviceRecord = Awaited<ReturnType<typeof selectDeviceRows>>[number];

const toDeviceRow = (r: DeviceRecord): DeviceRow => ({
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

/** Deepest unit chain followed below a unit (guards against bad data). */
const MAX_UNIT_DEPTH = 32;

/** Devices of a unit and of every unit below it. */
function inUnitSubtree(unitId: string): SQL {
  return sql`${device.unitId} in (
    with recursive subtree(id, depth) as (
      select ${operationUnit.id}, 0 from ${operationUnit} where ${operationUnit.id} = ${unitId}
      union all
      select u.id, s.depth + 1 from ${operationUnit} u join subtree s on u.parent_id = s.id
      where s.depth < ${MAX_UNIT_DEPTH}
    )
    select id from subtree
  )`;
}

/** Devices of a type and of its sub types. */
function ofTypeOrSubTypes(typeId: string): SQL {
  return sql`${device.typeId} in (
    select ${deviceType.id} from ${deviceType}
    where ${deviceType.id} = ${typeId} or ${deviceType.parentId} = ${typeId}
  )`;
}

function searchCondition(search: DeviceSearch): SQL | undefined {
  const keyword = search.keyword || undefined;
  return and(
    isNull(device.mainDeviceId),
    keyword
      ? or(
          containsText(device.name, keyword),
          containsText(device.code, keyword),
          containsText(device.imei, keyword),
          containsText(device.description, keyword),
        )
      : undefined,
    search.unitId ? inUnitSubtree(search.unitId) : undefined,
    search.typeId ? ofTypeOrSubTypes(search.typeId) : undefined,
    search.category ? eq(device.category, search.category) : undefined,
    search.iotType ? eq(device.iotType, search.iotType) : undefined,
    search.regist !== undefined ? eq(device.regist, search.regist) : undefined,
    search.deptId ? eq(device.deptId, search.deptId) : undefined,
    search.staffId ? eq(device.staffId, search.staffId) : undefined,
  );
}

/** The main devices of the ledger; every column of the row is a sort key. */
export async function queryDevices(db: Db, search: DeviceSearch, page: PageQuery): Promise<Page<DeviceRow>> {
  const result = await paged(db, selectDeviceRows(db, searchCondition(search)), deviceRowColumns, page, {
    defaultSort: { by: 'name', ascending: true },
    tieBreaker: device.id,
  });
  return { total: result.total, rows: result.rows.map(toDeviceRow) };
}

export async function deviceRowById(db: Db, id: string): Promise<DeviceRow | undefined> {
  const [row] = await selectDeviceRows(db, eq(device.id, id));
  return row && toDeviceRow(row);
}

/** What the rules of the ledger need to know of a device. */
export interface DeviceState {
  id: string;
  regist: boolean;
  mainDeviceId: string | null;
  unitId: string;
  stationId: string;
}

const stateColumns = {
  id: device.id,
  regist: device.regist,
  mainDeviceId: device.mainDeviceId,
  unitId: device.unitId,
  stationId: device.stationId,
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
