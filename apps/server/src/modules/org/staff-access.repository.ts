import { ADMIN_ROLE_ID, ALL_PERMISSIONS } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { role, rolePermission, staffRole } from './org.schema.ts';

export interface StaffAccess {
  roleNames: string[];
  isAdmin: boolean;
  permissions: Set<string>;
}

/** Roles and permission keys of a staff member; role `admin` holds every key. */
export async function loadStaffAccess(db: Db, staffId: string): Promise<StaffAccess> {
  const rows = await db
    .select({ roleId: role.id, roleName: role.name, permission: rolePermission.permission })
    .from(staffRole)
    .innerJoin(role, eq(role.id, staffRole.roleId))
    .leftJoin(rolePermission, eq(rolePermission.roleId, role.id))
    .where(eq(staffRole.staffId, staffId));
  const isAdmin = rows.some((r) => r.roleId === ADMIN_ROLE_ID);
  const permissions = new Set<string>(isAdmin ? ALL_PERMISSIONS : []);
  for (const r of rows) if (r.permission) permissions.add(r.permission);
  return { roleNames: [...new Set(rows.map((r) => r.roleName))], isAdmin, permissions };
}
