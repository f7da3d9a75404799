import type { DeviceData, DeviceSearch } from '@uiot/contracts';
import { type AnyColumn, and, count, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { alias, type PgSelectBase, type SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { containsText } from '../../db/paging.ts';
import { inSubtree } from '../../db/tree.ts';
import { department, staff } from '../org/org.schema.ts';
import { typeTree } from './device-type.repository.ts';
import { device, deviceType, operationUnit } from './devices.schema.ts';
import { unitTree } from './unit.repository.ts';

/**
 * The ledger's query, shared by its page and its export so both find and order the same devices: the
 * search, the joins that name a device's unit, type, department and staff member, and the sort keys.
 */

/** The main type of a device: the type itself, or the main type above a sub type. */
const mainType = alias(deviceType, 'main_type');

/** The SQL type a sort value, read as text, is cast back to when a keyset read continues after it. */
export type SortType = 'text' | 'numeric' | 'boolean' | 'integer' | 'timestamptz';

export interface SortKey<E extends AnyColumn | SQL = AnyColumn | SQL> {
  expr: E;
  type: SortType;
  /** Whether the value may be empty (columns of joined tables are taken as possibly empty). */
  nullable: boolean;
}

const text = <E extends AnyColumn | SQL>(expr: E, nullable = true): SortKey<E> => ({
  expr,
  type: 'text',
  nullable,
});
const of = <E extends AnyColumn | SQL>(expr: E, type: SortType, nullable = true): SortKey<E> => ({
  expr,
  type,
  nullable,
});

/** Every field of a ledger row (`DeviceData`) is a sort key of the same name. */
export const LEDGER_SORT_KEYS = {
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
  // Run state and lock state as the IoT pipeline last learnt them (runtime data), else as entered.
  status: text(
    sql<string>`coalesce((select r.run_state from device_runtime r where r.device_id = ${device.id}), ${device.status})`,
    false,
  ),
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
  lockStatus: text(
    sql<string>`coalesce((select r.lock_state from device_runtime r where r.device_id = ${device.id}), ${device.lockStatus})`,
    false,
  ),
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
    // Written out: an aliased table renders as its bare alias inside a selected field.
    sql<number>`(select count(*)::int from ${device} as attached where attached.main_device_id = ${device.id})`,
    'integer',
    false,
  ),
  createdAt: of(device.createdAt, 'timestamptz', false),
  updatedAt: of(device.updatedAt, 'timestamptz', false),
} satisfies Record<keyof DeviceData, SortKey>;

/** The ledger's order when the query names none (ascending). */
export const LEDGER_DEFAULT_SORT: keyof typeof LEDGER_SORT_KEYS = 'name';

type Expressions<K> = { [F in keyof K]: K[F] extends SortKey<infer E> ? E : never };

/** The columns of a ledger row: the expression of each sort key, under its name. */
export const ledgerColumns = Object.fromEntries(
  Object.entries(LEDGER_SORT_KEYS).map(([field, key]) => [field, key.expr]),
) as Expressions<typeof LEDGER_SORT_KEYS>;

/** The main devices matching the ledger search. */
/** Devices in the operation unit or a unit below it (every search by unit: the ledger's, the monitor's). */
export function inUnitTree(unitId: string): SQL {
  return inSubtree(device.unitId, unitTree, unitId);
}

/** Devices of the type or of a sub type of it. */
export function ofTypeTree(typeId: string): SQL {
  return inSubtree(device.typeId, typeTree, typeId);
}

export function ledgerSearch(search: DeviceSearch): SQL | undefined {
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
    search.unitId ? inUnitTree(search.unitId) : undefined,
    search.typeId ? ofTypeTree(search.typeId) : undefined,
    search.category ? eq(device.category, search.category) : undefined,
    search.iotType ? eq(device.iotType, search.iotType) : undefined,
    search.regist !== undefined ? eq(device.regist, search.regist) : undefined,
    search.deptId ? eq(device.deptId, search.deptId) : undefined,
    search.staffId ? eq(device.staffId, search.staffId) : undefined,
  );
}

function joinLedger(db: Db, fields: SelectedFields, where: SQL | undefined) {
  return db
    .select(fields)
    .from(device)
    .leftJoin(operationUnit, eq(operationUnit.id, device.unitId))
    .leftJoin(deviceType, eq(deviceType.id, device.typeId))
    .leftJoin(mainType, eq(mainType.id, sql`coalesce(${deviceType.parentId}, ${deviceType.id})`))
    .leftJoin(department, eq(department.id, device.deptId))
    .leftJoin(staff, eq(staff.id, device.staffId))
    .where(where)
    .$dynamic();
}

/** The select of `fields` over the joined ledger: a joined table's columns may be empty. */
export type LedgerSelect<F extends SelectedFields> = PgSelectBase<
  'device',
  F,
  'partial',
  ReturnType<typeof joinLedger>['_']['nullabilityMap'],
  true
>;

/**
 * `fields` of the devices matching `where`, with the unit, the type, the main type, the department and the
 * staff member joined (PostgreSQL drops the joins nothing refers to). Dynamic, unordered.
 */
export function selectLedger<F extends SelectedFields>(db: Db, fields: F, where: SQL | undefined) {
  // Drizzle cannot join on a select of generic fields; the joins' effect on the row type is taken from
  // the same joins over any fields.
  return joinLedger(db, fields, where) as unknown as LedgerSelect<F>;
}

/** How many devices match `where` (a `ledgerSearch`): read from the device table alone, without any join. */
export async function countLedger(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ total: count() }).from(device).where(where);
  return row?.total ?? 0;
}

/**
 * `fields` of one page of the devices matching `where`, in `orderBy`. The page's devices are chosen first by
 * their id and sort key alone, so PostgreSQL keeps only the joins the sort key names (the attachment count
 * is computed there only when it is the sort key), and an index on the key can serve the order; only the
 * chosen rows are then joined and counted, and ordered again (a total order, so the same).
 */
export function selectLedgerPage<F extends SelectedFields>(
  db: Db,
  fields: F,
  where: SQL | undefined,
  orderBy: SQL[],
  page: { limit: number; offset: number },
) {
  const chosen = selectLedger(db, { id: device.id }, where)
    .orderBy(...orderBy)
    .limit(page.limit)
    .offset(page.offset);
  return selectLedger(db, fields, inArray(device.id, chosen)).orderBy(...orderBy);
}
