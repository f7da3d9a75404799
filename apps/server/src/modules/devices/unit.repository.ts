import type { UnitForm, UnitNode } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  childCount,
  siblingNameTaken as siblingNameTakenIn,
  type TreeTable,
  treeNodeExists,
  treeParents,
} from '../../db/tree.ts';
import { operationUnit } from './devices.schema.ts';

export type UnitRecord = Omit<UnitNode, 'children'>;

const unitTree: TreeTable = {
  table: operationUnit,
  id: operationUnit.id,
  parentId: operationUnit.parentId,
  name: operationUnit.name,
};

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

/** Every unit's parent, to walk the tree upwards. */
export const unitParents = (db: Db) => treeParents(db, unitTree);

export const unitExists = (db: Db, id: string) => treeNodeExists(db, unitTree, id);

/** Whether a sibling under `parentId` (null: the top level) has the name, ignoring case. */
export const unitNameTaken = (db: Db, parentId: string | null, name: string, exceptId?: string) =>
  siblingNameTakenIn(db, unitTree, parentId, name, exceptId);

export const unitChildCount = (db: Db, id: string) => childCount(db, unitTree, id);

const columnsOf = (form: UnitForm) => ({
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
    .values({ ...columnsOf(form), stationId })
    .returning({ id: operationUnit.id });
  return row!.id;
}

export async function updateUnit(db: Db, id: string, form: UnitForm): Promise<void> {
  await db
    .update(operationUnit)
    .set({ ...columnsOf(form), updatedAt: new Date() })
    .where(eq(operationUnit.id, id));
}

export async function deleteUnit(db: Db, id: string): Promise<void> {
  await db.delete(operationUnit).where(eq(operationUnit.id, id));
}
