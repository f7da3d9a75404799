import type { UnitForm, UnitNode } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { childCount, treeNodeExists, treeTable } from '../../db/tree.ts';
import { operationUnit } from './devices.schema.ts';

export type UnitRecord = Omit<UnitNode, 'children'>;

export const unitTree = treeTable(operationUnit);

export function listUnits(db: Db): Promise<UnitRecord[]> {
  return db
    .select({
      id: operationUnit.id,
      name: operationUnit.name,
      menuName: operationUnit.menuName,
      parentId: operationUnit.parentId,
      sortIndex: operationUnit.sortIndex,
      stationId: operationUnit.stationId,
      typeId: operationUnit.typeId,
      desc: operationUnit.description,
    })
    .from(operationUnit);
}

export const unitExists = (db: Db, id: string) => treeNodeExists(db, unitTree, id);

export const unitChildCount = (db: Db, id: string) => childCount(db, unitTree, id);

/** The columns a unit form sets; the station is the installation's, set by the caller. */
export const unitFormColumns = (form: UnitForm) => ({
  name: form.name,
  menuName: form.menuName ?? null,
  parentId: form.parentId || null,
  sortIndex: form.sortIndex,
  typeId: form.typeId ?? null,
  description: form.desc ?? null,
});

export async function insertUnit(db: Db, form: UnitForm, stationId: string): Promise<string> {
  const [row] = await db
    .insert(operationUnit)
    .values({ ...unitFormColumns(form), stationId })
    .returning({ id: operationUnit.id });
  return row!.id;
}

export async function updateUnit(db: Db, id: string, form: UnitForm): Promise<void> {
  await db
    .update(operationUnit)
    .set({ ...unitFormColumns(form), updatedAt: new Date() })
    .where(eq(operationUnit.id, id));
}

export async function deleteUnit(db: Db, id: string): Promise<void> {
  await db.delete(operationUnit).where(eq(operationUnit.id, id));
}
