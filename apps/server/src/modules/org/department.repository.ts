import type { DepartmentForm, DeptType } from '@uiot/contracts';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { childCount, treeNodeExists, treeTable } from '../../db/tree.ts';
import type { DepartmentRecord } from './department-tree.ts';
import { department, permissionGrant, role, staff } from './org.schema.ts';

export async function listDepartments(db: Db): Promise<DepartmentRecord[]> {
  const rows = await db
    .select({
      id: department.id,
      name: department.name,
      code: department.code,
      deptType: department.deptType,
      description: department.description,
      idxNo: department.idxNo,
      parentId: department.parentId,
      // Written out in full: drizzle leaves columns of a single-table select unqualified, and an
      // unqualified "id" inside the subquery would be the staff member's.
      staffCount: sql<number>`(select count(*) from "staff" where "staff"."dept_id" = "department"."id")::int`,
    })
    .from(department);
  return rows.map((r) => ({ ...r, deptType: r.deptType as DeptType }));
}

export const departmentTree = treeTable(department);

export const departmentExists = (db: Db, id: string) => treeNodeExists(db, departmentTree, id);

const columnsOf = (form: DepartmentForm) => ({
  name: form.name,
  code: form.code ?? null,
  deptType: form.deptType,
  description: form.description ?? null,
  idxNo: form.idxNo,
  parentId: form.parentId || null,
});

export async function insertDepartment(db: Db, form: DepartmentForm): Promise<string> {
  const [row] = await db.insert(department).values(columnsOf(form)).returning({ id: department.id });
  return row!.id;
}

export async function updateDepartment(db: Db, id: string, form: DepartmentForm): Promise<void> {
  await db
    .update(department)
    .set({ ...columnsOf(form), updatedAt: new Date() })
    .where(eq(department.id, id));
}

export async function departmentUsage(db: Db, id: string): Promise<{ children: number; staff: number }> {
  const [members] = await db.select({ n: count() }).from(staff).where(eq(staff.deptId, id));
  return { children: await childCount(db, departmentTree, id), staff: members?.n ?? 0 };
}

/** Deletes a department with its grants; roles that belonged to it no longer name a department. */
export async function deleteDepartment(db: Db, id: string): Promise<void> {
  await db
    .delete(permissionGrant)
    .where(and(eq(permissionGrant.subjectType, 'Department'), eq(permissionGrant.subjectId, id)));
  await db.update(role).set({ deptId: null }).where(eq(role.deptId, id));
  await db.delete(department).where(eq(department.id, id));
}
