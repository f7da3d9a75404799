import type { DevicePropertyForm, DevicePropertyRow } from '@uiot/contracts';
import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { deviceProperty, warnRule, warnRuleItem } from './alarms.schema.ts';
import { knownMasterProperties } from './known-properties.ts';

const propertyRowColumns = {
  id: deviceProperty.id,
  deviceTypeId: deviceProperty.deviceTypeId,
  code: deviceProperty.code,
  name: deviceProperty.name,
  origin: deviceProperty.origin,
  valueType: deviceProperty.valueType,
  unit: deviceProperty.unit,
  builtIn: deviceProperty.builtIn,
};

/**
 * Adds the protocol's known fields a type's catalogue lacks (idempotent, safe to run concurrently). Their
 * name stays empty until an operator gives one: the console shows the field's translated name meanwhile.
 */
export async function seedKnownProperties(db: Db, deviceTypeId: string): Promise<void> {
  await db
    .insert(deviceProperty)
    .values(
      knownMasterProperties.map((p) => ({
        deviceTypeId,
        code: p.code,
        name: '',
        origin: 'Master' as const,
        valueType: p.valueType,
        unit: p.unit,
        builtIn: true,
      })),
    )
    .onConflictDoNothing();
}

/** A type's catalogue: known fields first (in the protocol's order), then the others by name. */
export async function listDeviceProperties(db: Db, deviceTypeId: string): Promise<DevicePropertyRow[]> {
  const rows = await db
    .select(propertyRowColumns)
    .from(deviceProperty)
    .where(eq(deviceProperty.deviceTypeId, deviceTypeId))
    .orderBy(desc(deviceProperty.builtIn), asc(deviceProperty.origin), asc(deviceProperty.name));
  const known = knownMasterProperties.map((p) => p.code as string);
  const rank = (row: { builtIn: boolean; code: string }) =>
    row.builtIn ? known.indexOf(row.code) : known.length;
  return rows.sort((a, b) => rank(a) - rank(b)).map(toPropertyRow);
}

type PropertyRecord = Omit<DevicePropertyRow, 'nameKey' | 'values' | 'valuesKey'>;

/** A known field carries the key of its translated name and the values a text field takes. */
function toPropertyRow(row: PropertyRecord): DevicePropertyRow {
  const known = row.builtIn ? knownMasterProperties.find((p) => p.code === row.code) : undefined;
  return {
    ...row,
    nameKey: known?.nameKey ?? null,
    values: known?.values ? [...known.values] : null,
    valuesKey: known?.valuesKey ?? null,
  };
}

export async function findDeviceProperty(db: Db, id: string): Promise<DevicePropertyRow | undefined> {
  const [row] = await db.select(propertyRowColumns).from(deviceProperty).where(eq(deviceProperty.id, id));
  return row && toPropertyRow(row);
}

/** Whether the type's catalogue already has the code for the origin, whatever its case. */
export async function propertyCodeTaken(
  db: Db,
  form: Pick<DevicePropertyForm, 'deviceTypeId' | 'origin' | 'code'>,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: deviceProperty.id })
    .from(deviceProperty)
    .where(
      and(
        eq(deviceProperty.deviceTypeId, form.deviceTypeId),
        eq(deviceProperty.origin, form.origin),
        sql`lower(${deviceProperty.code}) = lower(${form.code})`,
        exceptId ? ne(deviceProperty.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return !!row;
}

export async function insertDeviceProperty(db: Db, form: DevicePropertyForm): Promise<string> {
  const [row] = await db
    .insert(deviceProperty)
    .values({
      deviceTypeId: form.deviceTypeId,
      code: form.code,
      name: form.name,
      origin: form.origin,
      valueType: form.valueType,
      unit: form.unit ?? null,
    })
    .returning({ id: deviceProperty.id });
  return row!.id;
}

export async function updateDeviceProperty(
  db: Db,
  id: string,
  change: Pick<DevicePropertyForm, 'name' | 'unit'> & Partial<Pick<DevicePropertyForm, 'code' | 'valueType'>>,
): Promise<void> {
  await db
    .update(deviceProperty)
    .set({
      name: change.name,
      unit: change.unit ?? null,
      ...(change.code !== undefined ? { code: change.code } : {}),
      ...(change.valueType !== undefined ? { valueType: change.valueType } : {}),
      updatedAt: new Date(),
    })
    .where(eq(deviceProperty.id, id));
}

export async function deleteDeviceProperty(db: Db, id: string): Promise<void> {
  await db.delete(deviceProperty).where(eq(deviceProperty.id, id));
}

/** Names of the rules of the type whose items test the property (raise or clear). */
export async function rulesTestingProperty(
  db: Db,
  property: Pick<DevicePropertyRow, 'deviceTypeId' | 'origin' | 'code'>,
): Promise<string[]> {
  const rows = await db
    .selectDistinct({ name: warnRule.name })
    .from(warnRuleItem)
    .innerJoin(warnRule, eq(warnRule.id, warnRuleItem.ruleId))
    .where(
      and(
        eq(warnRule.deviceTypeId, property.deviceTypeId),
        eq(warnRuleItem.propOrigin, property.origin),
        sql`lower(${warnRuleItem.propCode}) = lower(${property.code})`,
      ),
    )
    .orderBy(asc(warnRule.name));
  return rows.map((r) => r.name);
}
