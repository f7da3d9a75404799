import type { DeviceSearch } from '@uiot/contracts';
import { type AnyColumn, and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { containsText } from '../../db/paging.ts';
import { AppError } from '../../http/app-error.ts';
import { department, staff } from '../org/org.schema.ts';
import { device, deviceType, operationUnit } from './devices.schema.ts';

/**
 * The ledger read for an export: the search and sort of the ledger's page query (every column of a
 * ledger row is a sort key), read in chunks by keyset so a large ledger never sits in memory.
 */

const mainType = alias(deviceType, 'export_main_type');
const attached = alias(device, 'export_attached');

type SortType = 'text' | 'numeric' | 'boolean' | 'integer' | 'timestamptz';
interface SortKey {
  expr: AnyColumn | SQL;
  type: SortType;
  /** Whether the value may be empty (columns of joined tables are taken as possibly empty). */
  nullable: boolean;
}

const text = (expr: AnyColumn | SQL, nullable = true): SortKey => ({ expr, type: 'text', nullable });
const of = (expr: AnyColumn | SQL, type: SortType, nullable = true): SortKey => ({ expr, type, nullable });

/** The sort keys of the ledger page (`deviceRow` fields), with the type their keyset value is read as. */
const SORT_KEYS: Record<string, SortKey> = {
  id: text(device.id, false),
  name: text(device.name, false),
  code: text(device.code),
  sbbh: text(device.sbbh),
  adCode: text(device.adCode),
  bayId: text(device.bayId),
  lng: of(device.lng, 'numeric'),
  lat: of(device.lat, 'numeric'),
  isDrawTool: of(device.isDrawTool, 'boolean', false),
  stationId: text(device.stationId, false),
  status: text(device.status, false),
  unitId: text(device.unitId, false),
  unitName: text(operationUnit.name),
  typeId: text(device.typeId, false),
  typeName: text(deviceType.name),
  devTypeCode: text(deviceType.code),
  mainTypeId: text(mainType.id),
  mainTypeName: text(mainType.name),
  category: text(device.category, false),
  voltage: text(device.voltage),
  deptId: text(device.deptId),
  deptName: text(department.name),
  staffId: text(device.staffId),
  staffName: text(staff.name),
  desc: text(device.description),
  extra1: text(device.extra1),
  extra2: text(device.extra2),
  graphId: text(device.graphId),
  idxNo: of(device.idxNo, 'integer'),
  imei: text(device.imei),
  imsi: text(device.imsi),
  appKey: text(device.appKey),
  iotType: text(device.iotType),
  lockStatus: text(device.lockStatus, false),
  mainDeviceId: text(device.mainDeviceId),
  netType: text(device.netType),
  noState: of(device.noState, 'boolean', false),
  noWorking: of(device.noWorking, 'boolean', false),
  addr: text(device.addr),
  secondId: text(device.secondId),
  kmInfo: text(device.kmInfo),
  line: text(device.line),
  track: text(device.track),
  door: text(device.door),
  regist: of(device.regist, 'boolean', false),
  registTime: of(device.registTime, 'timestamptz'),
  appEUI: text(device.appEui),
  devEUI: text(device.devEui),
  productId: text(device.productId),
  platName: text(device.platName),
  camera: text(device.camera),
  preSet: text(device.preSet),
  attachmentCount: of(
    sql`(select count(*)::int from ${attached} where ${attached.mainDeviceId} = ${device.id})`,
    'integer',
    false,
  ),
  createdAt: of(device.createdAt, 'timestamptz', false),
  updatedAt: of(device.updatedAt, 'timestamptz', false),
};

/** The ledger page's default order. */
const DEFAULT_SORT = 'name';

export interface LedgerOrder {
  key: SortKey;
  ascending: boolean;
}

/** The order of an export, as the page query reads `sort` / `ascending`; an unknown key is refused (400). */
export function ledgerOrder(sort: string | undefined, ascending: boolean | undefined): LedgerOrder {
  const by = sort || DEFAULT_SORT;
  const key = Object.hasOwn(SORT_KEYS, by) ? SORT_KEYS[by] : undefined;
  if (!key) throw AppError.invalid([{ path: 'sort', message: 'v.invalid' }]);
  return { key, ascending: sort ? (ascending ?? true) : true };
}

/** Deepest unit chain followed below a unit (guards against a loop in bad data). */
const MAX_UNIT_DEPTH = 32;

function inUnitOrBelow(unitId: string): SQL {
  return sql`${device.unitId} in (
    with recursive below(id, depth) as (
      select u.id, 0 from operation_unit u where u.id = ${unitId}
      union all
      select u.id, b.depth + 1 from operation_unit u join below b on u.parent_id = b.id
      where b.depth < ${MAX_UNIT_DEPTH}
    )
    select id from below
  )`;
}

function ofTypeOrSubTypes(typeId: string): SQL {
  return sql`${device.typeId} in (select t.id from device_type t where t.id = ${typeId} or t.parent_id = ${typeId})`;
}

/** The main devices matching the ledger search. */
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
    search.unitId ? inUnitOrBelow(search.unitId) : undefined,
    search.typeId ? ofTypeOrSubTypes(search.typeId) : undefined,
    search.category ? eq(device.category, search.category) : undefined,
    search.iotType ? eq(device.iotType, search.iotType) : undefined,
    search.regist !== undefined ? eq(device.regist, search.regist) : undefined,
    search.deptId ? eq(device.deptId, search.deptId) : undefined,
    search.staffId ? eq(device.staffId, search.staffId) : undefined,
  );
}

/** Where a chunk ended: the sort value as PostgreSQL writes it (exact for times and numbers) and the id. */
interface Position {
  key: string | null;
  id: string;
}

/**
 * The rows after a position, in the page query's order: ascending with empty values last, descending with
 * them first, then by id. Ascending on a column that is never empty is a row comparison, which the
 * indexes on (name, id) and (created_at, id) serve directly.
 */
function after(order: LedgerOrder, last: Position): SQL {
  const { expr, type, nullable } = order.key;
  const id = device.id;
  if (last.key === null) {
    const sameEmpty = sql`(${expr} is null and ${id} > ${last.id})`;
    return order.ascending ? sameEmpty : sql`(${sameEmpty} or ${expr} is not null)`;
  }
  const value = sql`cast(${last.key} as ${sql.raw(type)})`;
  if (order.ascending) {
    const beyond = sql`(${expr}, ${id}) > (${value}, ${last.id})`;
    return nullable ? sql`(${beyond} or ${expr} is null)` : beyond;
  }
  return sql`(${expr} < ${value} or (${expr} = ${value} and ${id} > ${last.id}))`;
}

function orderBy(order: LedgerOrder): SQL[] {
  const { expr } = order.key;
  return [
    order.ascending ? sql`${expr} asc nulls last` : sql`${expr} desc nulls first`,
    sql`${device.id} asc`,
  ];
}

/**
 * The ids of the next devices in order, with their sort value. Only the columns the order and the search
 * need are read here (PostgreSQL drops the joins nothing refers to), so the sort stays cheap.
 */
function positions(db: Db, order: LedgerOrder, where: SQL | undefined) {
  return db
    .select({ id: device.id, key: sql<string | null>`(${order.key.expr})::text` })
    .from(device)
    .leftJoin(operationUnit, eq(operationUnit.id, device.unitId))
    .leftJoin(deviceType, eq(deviceType.id, device.typeId))
    .leftJoin(mainType, eq(mainType.id, sql`coalesce(${deviceType.parentId}, ${deviceType.id})`))
    .leftJoin(department, eq(department.id, device.deptId))
    .leftJoin(staff, eq(staff.id, device.staffId))
    .where(where)
    .orderBy(...orderBy(order))
    .$dynamic();
}

/** The exported columns of the devices of a chunk. */
function records(db: Db, ids: string[]) {
  return db
    .select({
      id: device.id,
      name: device.name,
      code: device.code,
      unitId: device.unitId,
      typeCode: deviceType.code,
      typeName: deviceType.name,
      category: device.category,
      imei: device.imei,
      imsi: device.imsi,
      iotType: device.iotType,
      netType: device.netType,
      lng: device.lng,
      lat: device.lat,
      addr: device.addr,
      deptName: department.name,
      staffName: staff.name,
      desc: device.description,
      devEUI: device.devEui,
      appEUI: device.appEui,
      kmInfo: device.kmInfo,
      line: device.line,
      track: device.track,
      door: device.door,
      regist: device.regist,
      registTime: device.registTime,
      createdAt: device.createdAt,
    })
    .from(device)
    .leftJoin(deviceType, eq(deviceType.id, device.typeId))
    .leftJoin(department, eq(department.id, device.deptId))
    .leftJoin(staff, eq(staff.id, device.staffId))
    .where(inArray(device.id, ids));
}

export type LedgerRecord = Awaited<ReturnType<typeof records>>[number];

/** The records of a chunk in the order of its positions. */
async function chunkOf(db: Db, chunk: { id: string }[]): Promise<LedgerRecord[]> {
  if (chunk.length === 0) return [];
  const byId = new Map(
    (
      await records(
        db,
        chunk.map((p) => p.id),
      )
    ).map((r) => [r.id, r]),
  );
  return chunk.flatMap((p) => byId.get(p.id) ?? []);
}

export interface LedgerReadOptions {
  /** One page (1-based index) instead of every matching device. */
  page?: { index: number; size: number } | undefined;
  /** Rows read per query. */
  batchSize: number;
}

/** The matching devices chunk by chunk: one page, or all of them by keyset. */
export async function* ledgerBatches(
  db: Db,
  search: DeviceSearch,
  order: LedgerOrder,
  options: LedgerReadOptions,
): AsyncGenerator<LedgerRecord[]> {
  const where = searchCondition(search);
  if (options.page) {
    const { index, size } = options.page;
    yield await chunkOf(
      db,
      await positions(db, order, where)
        .limit(size)
        .offset((index - 1) * size),
    );
    return;
  }
  let last: Position | undefined;
  for (;;) {
    const chunk = await positions(db, order, last ? and(where, after(order, last)) : where).limit(
      options.batchSize,
    );
    if (chunk.length > 0) yield await chunkOf(db, chunk);
    if (chunk.length < options.batchSize) return;
    const end = chunk.at(-1)!;
    last = { key: end.key, id: end.id };
  }
}
