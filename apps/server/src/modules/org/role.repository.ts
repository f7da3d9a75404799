import { ADMIN_ROLE_ID, type PageQuery, type RoleForm, type RoleRow, type RoleType } from '@uiot/contracts';
import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsText, paged } from '../../db/paging.ts';
import { department, permissionGrant, role, staffRole } from './org.schema.ts';

export interface RoleSearch {
  name?: string | undefined;
  roleType?: RoleType | undefined;
}

export async function queryRoles(db: Db, search: RoleSearch, page: PageQuery) {
  const conditions: SQL[] = [];
  if (search.name) conditions.push(containsText(role.name, search.name));
  if (search.roleType) conditions.push(eq(role.roleType, search.roleType));
  const query = db
    .select({
      id: role.id,
      name: role.name,
      roleType: role.roleType,
      description: role.description,
      deptId: role.deptId,
      deptName: department.name,
      staffCount: sql<number>`(select count(*) from ${staffRole} where ${staffRole.roleId} = ${role.id})::int`,
      createdAt: role.createdAt,
    })
    .from(role)
    .leftJoin(department, eq(department.id, role.deptId))
    .where(and(...conditions))
    .$dynamic();
  const result = await paged(db, query, { name: role.name, createdAt: role.createdAt }, page, {
    tieBreaker: role.id,
  });
  return {
    total: result.total,
    rows: result.rows.map(
      (r): RoleRow => ({
        ...r,
        roleType: r.roleType as RoleType | null,
        builtIn: r.id === ADMIN_ROLE_ID,
        createdAt: r.createdAt.toISOString(),
      }),
    ),
  };
}

export async function allRoles(db: Db) {
  const rows = await db
    .select({ id: role.id, name: role.name, roleType: role.roleType })
    .from(role)
    .orderBy(asc(role.name), asc(role.id));
  return rows.map((r) => ({ ...r, roleType: r.roleType as RoleType | null }));
}

export async function roleExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: role.id }).from(role).where(eq(role.id, id));
  return row !== undefined;
}

/** The ids among `ids` that name existing roles. */
export async function existingRoleIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: role.id })
    .from(role)
    .where(inArray(role.id, [...ids]));
  return new Set(rows.map((r) => r.id));
}

export async function roleNameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: role.id })
    .from(role)
    .where(
      and(sql`lower(${role.name}) = ${name.toLowerCase()}`, exceptId ? ne(role.id, exceptId) : undefined),
    )
    .limit(1);
  return row !== undefined;
}

const columnsOf = (form: RoleForm) => ({
  name: form.name,
  roleType: form.roleType ?? null,
  description: form.description ?? null,
  deptId: form.deptId || null,
});

export async function insertRole(db: Db, form: RoleForm): Promise<string> {
  const [row] = await db.insert(role).values(columnsOf(form)).returning({ id: role.id });
  return row!.id;
}

export async function updateRole(db: Db, id: string, form: RoleForm): Promise<void> {
  await db
    .update(role)
    .set({ ...columnsOf(form), updatedAt: new Date() })
    .where(eq(role.id, id));
}

/** Deletes a role with its grants; its staff lose it (staff_role cascades). */
export async function deleteRole(db: Db, id: string): Promise<void> {
  await db
    .delete(permissionGrant)
    .where(and(eq(permissionGrant.subjectType, 'Role'), eq(permissionGrant.subjectId, id)));
  await db.delete(staffRole).where(eq(staffRole.roleId, id));
  await db.delete(role).where(eq(role.id, id));
}
