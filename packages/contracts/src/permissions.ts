/**
 * Permission keys (`resource.action`). Every API route declares one of these, or is open to every signed-in
 * user, or is on the explicit public list (see endpoint.ts). Role `admin` holds every key.
 */
export const Permission = {
  StaffRead: 'staff.read',
  OpLogRead: 'oplog.read',
  LoginLogRead: 'loginlog.read',
} as const;
export type PermissionKey = (typeof Permission)[keyof typeof Permission];
export const ALL_PERMISSIONS: readonly PermissionKey[] = Object.values(Permission);

export function isPermissionKey(value: string): value is PermissionKey {
  return (ALL_PERMISSIONS as readonly string[]).includes(value);
}

/** The id of the built-in administrator account and of the role that holds every permission. */
export const ADMIN_STAFF_ID = 'admin';
export const ADMIN_ROLE_ID = 'admin';
