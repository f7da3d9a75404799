import {
  type DeviceCategory,
  type DeviceTypeForm,
  type DeviceTypeNode,
  devTypeOpKey,
  type IntervalForm,
} from '@uiot/contracts';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { childCount, siblingNameTaken, treeNodeExists, treeTable } from '../../db/tree.ts';
import { permissionGrant } from '../org/org.schema.ts';
import { device, deviceType } from './devices.schema.ts';

export type DeviceTypeRecord = Omit<DeviceTypeNode, 'children'>;

export const typeTree = treeTable(deviceType);

export const deviceTypeExists = (db: Db, id: string) => treeNodeExists(db, typeTree, id);

export async function listDeviceTypes(db: Db): Promise<DeviceTypeRecord[]> {
  const rows = await db
    .select({
      id: deviceType.id,
      name: deviceType.name,
      code: deviceType.code,
      parentId: deviceType.parentId,
      category: deviceType.category,
      reportInterval: deviceType.reportInterval,
      heartbeatInterval: deviceType.heartbeatInterval,
      sortIndex: deviceType.sortIndex,
      desc: deviceType.description,
      // Qualified by hand: a one-table select renders its columns without the table name.
      deviceCount: sql<number>`(select count(*) from ${device} d where d.type_id = ${deviceType}.id)::int`,
    })
    .from(deviceType);
  return rows.map((r) => ({ ...r, category: r.category as DeviceCategory }));
}

/** The type's place in the two-level catalogue, or undefined when it does not exist. */
export async function deviceTypePlace(db: Db, id: string): Promise<{ parentId: string | null } | undefined> {
  const [row] = await db
    .select({ parentId: deviceType.parentId })
    .from(deviceType)
    .where(eq(deviceType.id, id));
  return row;
}

/**
 * The types of `ids` that exist, their rows held until the transaction ends: a delete of one of them
 * waits, then removes the grants written meanwhile (see `deleteDeviceType`).
 */
export async function holdDeviceTypes(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: deviceType.id })
    .from(deviceType)
    .where(inArray(deviceType.id, [...new Set(ids)]))
    .for('share');
  return new Set(rows.map((r) => r.id));
}

/** Whether another type has the code, ignoring case. */
export async function deviceTypeCodeTaken(db: Db, code: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: deviceType.id })
    .from(deviceType)
    .where(
      and(
        sql`lower(${deviceType.code}) = ${code.toLowerCase()}`,
        exceptId ? ne(deviceType.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Whether a sibling under `parentId` (null: the main types) has the name, ignoring case. */
export const deviceTypeNameTaken = (db: Db, parentId: string | null, name: string, exceptId?: string) =>
  siblingNameTaken(db, typeTree, parentId, name, exceptId);

export const subTypeCount = (db: Db, id: string) => childCount(db, typeTree, id);

export async function deviceTypeInUse(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: device.id }).from(device).where(eq(device.typeId, id)).limit(1);
  return row !== undefined;
}

const columnsOf = (form: DeviceTypeForm) => ({
  name: form.name,
  code: form.code,
  parentId: form.parentId || null,
  category: form.category,
  reportInterval: form.reportInterval,
  heartbeatInterval: form.heartbeatInterval,
  sortIndex: form.sortIndex,
  description: form.desc ?? null,
});

export async function insertDeviceType(db: Db, form: DeviceTypeForm): Promise<string> {
  const [row] = await db.insert(deviceType).values(columnsOf(form)).returning({ id: deviceType.id });
  return row!.id;
}

export async function updateDeviceType(db: Db, id: string, form: DeviceTypeForm): Promise<void> {
  await db
    .update(deviceType)
    .set({ ...columnsOf(form), updatedAt: new Date() })
    .where(eq(deviceType.id, id));
}

/** Sets the intervals only; answers whether the type exists. */
export async function updateIntervals(db: Db, form: IntervalForm): Promise<boolean> {
  const rows = await db
    .update(deviceType)
    .set({
      reportInterval: form.reportInterval,
      heartbeatInterval: form.heartbeatInterval,
      updatedAt: new Date(),
    })
    .where(eq(deviceType.id, form.id))
    .returning({ id: deviceType.id });
  return rows.length > 0;
}

/**
 * Deletes the type and every grant of its DevTypeOp key; run it in a transaction. The type goes first: that
 * waits for a grant being written with it (see `holdDeviceTypes`), whose key the second statement then sees.
 */
export async function deleteDeviceType(db: Db, id: string): Promise<void> {
  await db.delete(deviceType).where(eq(deviceType.id, id));
  await db.delete(permissionGrant).where(eq(permissionGrant.permission, devTypeOpKey(id)));
}
