import { ResultCode } from '@uiot/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import { type DeviceOperator, mayOperateDeviceType, type OperatedType } from './device-operation.ts';
import { device, deviceType } from './devices.schema.ts';

const mainType = alias(deviceType, 'operated_main_type');

/** The type of each device (of those that exist), with its main type and the name the refusal shows. */
async function operatedTypesOf(
  db: Db,
  deviceIds: readonly string[],
): Promise<(OperatedType & { typeName: string })[]> {
  return db
    .select({
      typeId: device.typeId,
      mainTypeId: sql<string | null>`coalesce(${mainType.id}, ${deviceType.id})`,
      typeName: deviceType.name,
    })
    .from(device)
    .innerJoin(deviceType, eq(deviceType.id, device.typeId))
    .leftJoin(mainType, eq(mainType.id, deviceType.parentId))
    .where(inArray(device.id, [...new Set(deviceIds)]));
}

/** The refusal of an operation on a device of a type the user holds no DevTypeOp grant for: HTTP 403. */
export function notOperable(typeName: string): AppError {
  return new AppError(ResultCode.DeviceTypeNotOperable, { params: { type: typeName }, httpStatus: 403 });
}

/**
 * Refuses with DeviceTypeNotOperable (HTTP 403, naming the type) unless `operator` may operate every one of
 * the devices (`mayOperateDeviceType`). A device that does not exist is left to the caller, which answers
 * NotFound for it; run it after that check, in the caller's transaction where there is one.
 */
export async function requireOperable(
  db: Db,
  operator: DeviceOperator,
  deviceIds: readonly string[],
): Promise<void> {
  if (operator.isAdmin || deviceIds.length === 0) return;
  const refused = (await operatedTypesOf(db, deviceIds)).find(
    (type) => !mayOperateDeviceType(operator, type),
  );
  if (refused) throw notOperable(refused.typeName);
}

/**
 * Refuses like `requireOperable` unless `operator` may operate devices of the type `typeId` (a device that
 * is to get it). An unknown type is left to the caller's validation.
 */
export async function requireTypeOperable(db: Db, operator: DeviceOperator, typeId: string): Promise<void> {
  if (operator.isAdmin) return;
  const [type] = await db
    .select({
      typeId: deviceType.id,
      mainTypeId: sql<string | null>`coalesce(${deviceType.parentId}, ${deviceType.id})`,
      typeName: deviceType.name,
    })
    .from(deviceType)
    .where(eq(deviceType.id, typeId));
  if (type && !mayOperateDeviceType(operator, type)) throw notOperable(type.typeName);
}
