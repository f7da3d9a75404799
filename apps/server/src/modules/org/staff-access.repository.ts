import { ADMIN_ROLE_ID, ALL_PERMISSIONS } from '@uiot/contracts';
import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { department, permissionGrant, role, staff, staffRole } from './org.schema.ts';

/** Deepest department chain followed when collecting department grants (guards against bad data). */
const MAX_DEPARTMENT_DEPTH = 32;

/**
 * SQL for the permission keys a staff member holds through its roles, its own grants and the grants of
 * its department and every department above it.
 */
export function effectivePermissionsSql(staffId: SQL | string, deptId: SQL | string | null): SQL<string[]> {
  return sql<string[]>`array(
    with recursive dept_chain(id, parent_id, depth) as (
      select ${department.id}, ${department.parentId}, 0 from ${department} where ${department.id} = ${deptId}
      union all
      select d.id, d.parent_id, c.depth + 1 from ${department} d join dept_chain c on d.id = c.parent_id
      where c.depth < ${MAX_DEPARTMENT_DEPTH}
    )
    select distinct g.permission from ${permissionGrant} g
    where (g.subject_type = 'Role' and g.subject_id in
            (select ${staffRole.roleId} from ${staffRole} where ${staffRole.staffId} = ${staffId}))
       or (g.subject_type = 'Staff' and g.subject_id = ${staffId})
       or (g.subject_type = 'Department' and g.subject_id in (select id from dept_chain))
  )`;
}

export function isAdminSql(staffId: SQL | string): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${staffRole} where ${staffRole.staffId} = ${staffId} and ${staffRole.roleId} = ${ADMIN_ROLE_ID})`;
}

/** SQL for the names of a staff member's roles, in name order. */
export function roleNamesSql(staffId: SQL | string): SQL<string[]> {
  return sql<
    string[]
  >`array(select ${role.name} from ${staffRole} join ${role} on ${role.id} = ${staffRole.roleId} where ${staffRole.staffId} = ${staffId} order by ${role.name})`;
}

export interface StaffAccess {
  roleNames: string[];
  isAdmin: boolean;
  permissions: Set<string>;
}

/** Roles and effective permission keys of a staff member; role `admin` holds every key. */
export async function loadStaffAccess(db: Db, staffId: string): Promise<StaffAccess> {
  const [row] = await db
    .select({
      isAdmin: isAdminSql(staffId),
      permissions: effectivePermissionsSql(staffId, sql`${staff.deptId}`),
      roleNames: roleNamesSql(staffId),
    })
    .from(staff)
    .where(eq(staff.id, staffId));
  if (!row) return { roleNames: [], isAdmin: false, permissions: new Set() };
  return {
    roleNames: row.roleNames,
    isAdmin: row.isAdmin,
    permissions: new Set<string>(row.isAdmin ? ALL_PERMISSIONS : row.permissions),
  };
}

/** Whether each of these staff members is an administrator, and their effective keys, in one query. */
export async function loadStaffKeys(
  db: Db,
  staffIds: readonly string[],
): Promise<Map<string, { isAdmin: boolean; permissions: string[] }>> {
  if (staffIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: staff.id,
      isAdmin: isAdminSql(sql`${staff.id}`),
      permissions: effectivePermissionsSql(sql`${staff.id}`, sql`${staff.deptId}`),
    })
    .from(staff)
    .where(inArray(staff.id, [...staffIds]));
  return new Map(rows.map((row) => [row.id, { isAdmin: row.isAdmin, permissions: row.permissions }]));
}
