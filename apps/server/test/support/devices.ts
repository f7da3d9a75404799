import type { Db } from '../../src/db/client.ts';
import { DEFAULT_STATION } from '../../src/lib/station.ts';
import { device, deviceType, operationUnit } from '../../src/modules/devices/devices.schema.ts';
import { uniqueName } from './app.ts';

/**
 * Rows written straight into the ledger's tables, for suites that need a unit, a type or a device to
 * exist without going through the endpoints that create them.
 */
export async function insertUnitRow(db: Db, name = uniqueName('Unit'), parentId: string | null = null) {
  const [row] = await db
    .insert(operationUnit)
    .values({ name, parentId, stationId: DEFAULT_STATION.id })
    .returning({ id: operationUnit.id });
  return row!.id;
}

export async function insertDeviceTypeRow(
  db: Db,
  values: { name?: string; code?: string; parentId?: string | null; category?: string } = {},
) {
  const code = values.code ?? uniqueName('T');
  const [row] = await db
    .insert(deviceType)
    .values({
      name: values.name ?? code,
      code,
      parentId: values.parentId ?? null,
      category: values.category ?? 'IoT',
      reportInterval: 3600,
      heartbeatInterval: 300,
    })
    .returning({ id: deviceType.id });
  return row!.id;
}

export async function insertDeviceRow(
  db: Db,
  values: {
    unitId: string;
    typeId: string;
    name?: string;
    regist?: boolean;
    imei?: string | null;
    code?: string | null;
    devEui?: string | null;
    mainDeviceId?: string | null;
  },
) {
  const [row] = await db
    .insert(device)
    .values({
      name: values.name ?? uniqueName('Lock'),
      unitId: values.unitId,
      typeId: values.typeId,
      category: 'IoT',
      stationId: DEFAULT_STATION.id,
      regist: values.regist ?? false,
      registTime: values.regist ? new Date() : null,
      imei: values.imei ?? null,
      code: values.code ?? null,
      devEui: values.devEui ?? null,
      mainDeviceId: values.mainDeviceId ?? null,
    })
    .returning({ id: device.id });
  return row!.id;
}
