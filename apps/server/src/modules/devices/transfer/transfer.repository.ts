import type { DeviceCategory } from '@uiot/contracts';
import { type AnyColumn, inArray, SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { department, staff } from '../../org/org.schema.ts';
import { deviceFormColumns } from '../device.repository.ts';
import { device, deviceType, lockCode, lockKey, operationUnit } from '../devices.schema.ts';
import { keyFormColumns } from '../key.repository.ts';
import { lockCodeFormColumns } from '../lock-code.repository.ts';
import { unitFormColumns } from '../unit.repository.ts';
import type { NewDevice } from './import-devices.ts';
import type { NewKey } from './import-keys.ts';
import type { LockedDevice, NewLockCode } from './import-lock-codes.ts';
import type { PeopleRefs } from './import-rows.ts';
import type { NewUnit } from './import-units.ts';

/** What an import looks up and writes. Lookups take the distinct values of the file, never the whole table. */

/** Rows per INSERT statement (PostgreSQL takes at most 65 535 parameters per statement). */
const INSERT_CHUNK = 500;

async function insertChunked<T>(rows: readonly T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await insert(rows.slice(i, i + INSERT_CHUNK));
}

const lower = (column: AnyColumn) => sql<string>`lower(${column})`;

function anyOf(column: AnyColumn | SQL, values: readonly string[]): SQL {
  if (values.length === 0) return sql`false`;
  return column instanceof SQL ? inArray(column, values) : inArray(column, values);
}

export interface UnitNode {
  id: string;
  parentId: string | null;
  name: string;
  stationId: string;
}

/** Every unit: the tree is small, and paths need all the ancestors. */
export function listUnitNodes(db: Db): Promise<UnitNode[]> {
  return db
    .select({
      id: operationUnit.id,
      parentId: operationUnit.parentId,
      name: operationUnit.name,
      stationId: operationUnit.stationId,
    })
    .from(operationUnit);
}

/** Device types by lower-cased code. */
export async function typesByCode(
  db: Db,
  lowerCodes: readonly string[],
): Promise<Map<string, { id: string; category: DeviceCategory }>> {
  const rows = await db
    .select({ id: deviceType.id, code: deviceType.code, category: deviceType.category })
    .from(deviceType)
    .where(anyOf(lower(deviceType.code), lowerCodes));
  return new Map(
    rows.map((r) => [r.code.toLowerCase(), { id: r.id, category: r.category as DeviceCategory }]),
  );
}

/** Departments and staff members by lower-cased name. */
export async function peopleByName(
  db: Db,
  deptNames: readonly string[],
  staffNames: readonly string[],
): Promise<PeopleRefs> {
  const depts = await db
    .select({ id: department.id, name: department.name })
    .from(department)
    .where(anyOf(lower(department.name), deptNames));
  const departments = new Map<string, string[]>();
  for (const d of depts) {
    const key = d.name.trim().toLowerCase();
    departments.set(key, [...(departments.get(key) ?? []), d.id]);
  }
  const people = await db
    .select({ id: staff.id, name: staff.name })
    .from(staff)
    .where(anyOf(lower(staff.name), staffNames));
  return { departments, staff: new Map(people.map((s) => [s.name.toLowerCase(), s.id])) };
}

/** The values of a device column already used by some device (main or attached). */
async function takenValues(db: Db, column: AnyColumn, values: readonly string[]): Promise<Set<string>> {
  if (values.length === 0) return new Set();
  const rows = await db
    .select({ value: sql<string>`${column}` })
    .from(device)
    .where(anyOf(column, values));
  return new Set(rows.map((r) => r.value));
}

export async function takenDeviceIdentifiers(
  db: Db,
  values: { code: readonly string[]; imei: readonly string[]; devEUI: readonly string[] },
) {
  return {
    code: await takenValues(db, device.code, values.code),
    imei: await takenValues(db, device.imei, values.imei),
    devEUI: await takenValues(db, device.devEui, values.devEUI),
  };
}

/** The devices a lock-code file names, by code and by exact name. */
export async function devicesByCodeOrName(
  db: Db,
  values: readonly string[],
): Promise<{ byCode: Map<string, LockedDevice>; byName: Map<string, LockedDevice[]> }> {
  const byCode = new Map<string, LockedDevice>();
  const byName = new Map<string, LockedDevice[]>();
  if (values.length === 0) return { byCode, byName };
  const columns = { id: device.id, code: device.code, name: device.name, mainDeviceId: device.mainDeviceId };
  for (const r of await db.select(columns).from(device).where(anyOf(device.code, values))) {
    byCode.set(r.code!, { id: r.id, mainDeviceId: r.mainDeviceId });
  }
  for (const r of await db.select(columns).from(device).where(anyOf(device.name, values))) {
    byName.set(r.name, [...(byName.get(r.name) ?? []), { id: r.id, mainDeviceId: r.mainDeviceId }]);
  }
  return { byCode, byName };
}

export async function takenRfids(db: Db, rfids: readonly string[]): Promise<Set<string>> {
  if (rfids.length === 0) return new Set();
  const rows = await db
    .select({ rfid: lockCode.rfidCode })
    .from(lockCode)
    .where(anyOf(lockCode.rfidCode, rfids));
  return new Set(rows.map((r) => r.rfid));
}

/** Key codes already in the ledger, lower-cased (unique ignoring case). */
export async function takenKeyCodes(db: Db, lowerCodes: readonly string[]): Promise<Set<string>> {
  if (lowerCodes.length === 0) return new Set();
  const rows = await db
    .select({ code: lockKey.code })
    .from(lockKey)
    .where(anyOf(lower(lockKey.code), lowerCodes));
  return new Set(rows.map((r) => r.code.toLowerCase()));
}

export async function insertUnits(db: Db, units: readonly NewUnit[], stationId: string): Promise<void> {
  await insertChunked(units, (chunk) =>
    db.insert(operationUnit).values(chunk.map((u) => ({ id: u.id, ...unitFormColumns(u.form), stationId }))),
  );
}

/** New devices are main devices, unregistered. */
export async function insertDevices(db: Db, devices: readonly NewDevice[]): Promise<void> {
  await insertChunked(devices, (chunk) =>
    db
      .insert(device)
      .values(
        chunk.map(({ form, category, stationId, ...refs }) =>
          deviceFormColumns({ ...form, ...refs }, category, stationId),
        ),
      ),
  );
}

export async function insertLockCodes(db: Db, lockCodes: readonly NewLockCode[]): Promise<void> {
  await insertChunked(lockCodes, (chunk) =>
    db.insert(lockCode).values(chunk.map(({ deviceId, form }) => lockCodeFormColumns({ ...form, deviceId }))),
  );
}

export async function insertKeys(db: Db, keys: readonly NewKey[]): Promise<void> {
  await insertChunked(keys, (chunk) =>
    db.insert(lockKey).values(chunk.map(({ form, ...holder }) => keyFormColumns({ ...form, ...holder }))),
  );
}
