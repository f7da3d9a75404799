import type { AdjustValueForm, AdjustValueRow } from '@uiot/contracts';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adjustValue } from './devices.schema.ts';

/** The correction values of a device, oldest first. */
export async function listAdjustValues(db: Db, deviceId: string): Promise<AdjustValueRow[]> {
  const rows = await db
    .select({
      id: adjustValue.id,
      deviceId: adjustValue.deviceId,
      name: adjustValue.name,
      value: adjustValue.value,
      type: adjustValue.type,
      createdAt: adjustValue.createdAt,
    })
    .from(adjustValue)
    .where(eq(adjustValue.deviceId, deviceId))
    .orderBy(asc(adjustValue.createdAt), asc(adjustValue.id));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

export async function adjustValueExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: adjustValue.id }).from(adjustValue).where(eq(adjustValue.id, id));
  return row !== undefined;
}

const columnsOf = (form: AdjustValueForm) => ({
  deviceId: form.deviceId,
  name: form.name,
  value: form.value,
  type: form.type ?? null,
});

export async function insertAdjustValue(db: Db, form: AdjustValueForm): Promise<string> {
  const [row] = await db.insert(adjustValue).values(columnsOf(form)).returning({ id: adjustValue.id });
  return row!.id;
}

export async function updateAdjustValueRow(db: Db, id: string, form: AdjustValueForm): Promise<void> {
  await db
    .update(adjustValue)
    .set({ ...columnsOf(form), updatedAt: new Date() })
    .where(eq(adjustValue.id, id));
}

export async function deleteAdjustValueRow(db: Db, id: string): Promise<void> {
  await db.delete(adjustValue).where(eq(adjustValue.id, id));
}
