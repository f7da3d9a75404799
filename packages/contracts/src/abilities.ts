import { z } from 'zod';

/**
 * What the signed-in user may do with a device of a row, decided by the server for each row (the console
 * reads it and never re-derives the rule; STYLE.md, outline's policies).
 */
export const deviceAbilities = z.object({
  /**
   * Operate the physical device: send it commands, register or unregister it, change its credential, reset
   * its IMEI, replace it. The server allows it with the DevTypeOp grant of the device's type (spec §6).
   */
  operate: z.boolean(),
});
export type DeviceAbilities = z.infer<typeof deviceAbilities>;

/**
 * What the signed-in user may do with a staff member of a row, decided by the server's staff service with
 * the rule it enforces on each of these calls: the built-in administrator is nobody's to edit, disable,
 * re-role, grant, reset or delete; nobody disables, resets the password of, or deletes their own account.
 * The permission keys of the calls are checked besides (the console hides a button without its key).
 */
export const staffAbilities = z.object({
  update: z.boolean(),
  enable: z.boolean(),
  disable: z.boolean(),
  // Named after its endpoint (`resetPwd`): no answer of the staff lists names a password.
  resetPwd: z.boolean(),
  assignRoles: z.boolean(),
  grant: z.boolean(),
  delete: z.boolean(),
});
export type StaffAbilities = z.infer<typeof staffAbilities>;
export type StaffAction = keyof StaffAbilities;

/**
 * What the signed-in user may do with a role of a row, decided by the server's role service with the rule it
 * enforces: the built-in role `admin` holds every key and is never edited, granted or deleted.
 */
export const roleAbilities = z.object({
  update: z.boolean(),
  grant: z.boolean(),
  delete: z.boolean(),
});
export type RoleAbilities = z.infer<typeof roleAbilities>;
export type RoleAction = keyof RoleAbilities;

/**
 * What the signed-in user may do with a parameter of a row, decided by the server's parameter service with
 * the rule it enforces: only an editable parameter changes, and a built-in one is never deleted.
 */
export const paramAbilities = z.object({ update: z.boolean(), delete: z.boolean() });
export type ParamAbilities = z.infer<typeof paramAbilities>;
export type ParamAction = keyof ParamAbilities;
