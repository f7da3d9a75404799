import type { DevicePasswordRow, Page, PageQuery } from '@uiot/contracts';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsText, paged } from '../../db/paging.ts';
import { inSubtree } from '../../db/tree.ts';
import { device, devicePassword, deviceType, operationUnit } from './devices.schema.ts';
import { unitTree } from './unit.repository.ts';

export interface DevicePasswordSearch {
  keyword?: string | undefined;
  unitId?: string | undefined;
  hasPassword?: boolean | undefined;
}

const hasPassword = sql<boolean>`(${devicePassword.deviceId} is not null)`;

const SORTS = {
  deviceName: device.name,
  unitName: operationUnit.name,
  typeName: deviceType.name,
  imei: device.imei,
  regist: device.regist,
  hasPassword,
  updatedBy: devicePassword.updatedBy,
  updatedAt: devicePassword.updatedAt,
};

/** The device and every sort column; never the password: it leaves the database only through `passwordOf`. */
const rowColumns = { deviceId: device.id, ...SORTS };

/** Main devices (attached devices have no password of their own) and whether each has a password. */
export async function queryDevicePasswords(
  db: Db,
  search: DevicePasswordSearch,
  page: PageQuery,
): Promise<Page<DevicePasswordRow>> {
  const where = and(
    isNull(device.mainDeviceId),
    search.keyword
      ? or(containsText(device.name, search.keyword), containsText(device.imei, search.keyword))
      : undefined,
    search.unitId ? inSubtree(device.unitId, unitTree, search.unitId) : undefined,
    search.hasPassword === undefined ? undefined : search.hasPassword ? hasPassword : sql`not ${hasPassword}`,
  );
  const query = db
    .select(rowColumns)
    .from(device)
    .leftJoin(devicePassword, eq(devicePassword.deviceId, device.id))
    .leftJoin(operationUnit, eq(operationUnit.id, device.unitId))
    .leftJoin(deviceType, eq(deviceType.id, device.typeId))
    .where(where)
    .$dynamic();
  const result = await paged(db, query, SORTS, page, { tieBreaker: device.id });
  return {
    total: result.total,
    rows: result.rows.map((r) => ({ ...r, updatedAt: r.updatedAt?.toISOString() ?? null })),
  };
}

export async function deviceExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: device.id }).from(device).where(eq(device.id, id));
  return row !== undefined;
}

/** The stored password of a device, or null when it has none. */
export async function passwordOf(db: Db, deviceId: string): Promise<string | null> {
  const [row] = await db
    .select({ password: devicePassword.password })
    .from(devicePassword)
    .where(eq(devicePassword.deviceId, deviceId));
  return row?.password ?? null;
}

export async function upsertPassword(
  db: Db,
  deviceId: string,
  password: string,
  updatedBy: string,
): Promise<void> {
  const updatedAt = new Date();
  await db
    .insert(devicePassword)
    .values({ deviceId, password, updatedBy, updatedAt })
    .onConflictDoUpdate({ target: devicePassword.deviceId, set: { password, updatedBy, updatedAt } });
}
