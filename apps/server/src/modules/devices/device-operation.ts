import { devTypeOpKey } from '@uiot/contracts';

/**
 * Who operates a device: the session's user (its permission keys, and whether it holds role `admin`), or
 * the server itself (SERVER_OPERATOR).
 */
export interface DeviceOperator {
  isAdmin: boolean;
  permissions: ReadonlySet<string>;
}

/**
 * The server acting on its own behalf, not for a user: seeding the demo station (DEMO=1) registers its
 * locks and issues their secrets at every start.
 */
export const SERVER_OPERATOR: DeviceOperator = { isAdmin: true, permissions: new Set() };

/** The type of an operated device in the two-level catalogue. */
export interface OperatedType {
  typeId: string;
  /** The main type: the type itself, or the main type above a sub type (null when unknown). */
  mainTypeId: string | null;
}

/**
 * Whether `operator` may operate a device of this type (spec §6 resource type DevTypeOp): send it commands,
 * register or unregister it, change its credential, reset its IMEI, replace it, open it remotely. Every
 * operation of a physical device asks this one rule.
 *
 * - Role `admin` holds every grant.
 * - Anyone else needs the grant `devTypeOp:{typeId}` of the device's type, or that of its main type: a grant
 *   on a main type covers the main type and every sub type under it, those added later included. A grant
 *   on a sub type covers that sub type only, not its main type nor the sub types beside it.
 */
export function mayOperateDeviceType(operator: DeviceOperator, type: OperatedType): boolean {
  if (operator.isAdmin) return true;
  if (operator.permissions.has(devTypeOpKey(type.typeId))) return true;
  return type.mainTypeId !== null && operator.permissions.has(devTypeOpKey(type.mainTypeId));
}
