import { ADMIN_STAFF_ID } from '@uiot/contracts';

/** The parameter that turns the forced first-sign-in password change on (spec §4 Login, §6). */
export const FORCED_CHANGE_PARAM = 'ChangePwdByFirstLogin';

/**
 * Whether a user is held at the forced password change: the parameter is 'true' and the user still has the
 * initial (or a reset) password. The built-in administrator is never held; its password is not changed from
 * the console.
 */
export function passwordChangeRequired(
  staffId: string,
  mustChangePassword: boolean,
  forcedChangeParam: string | null | undefined,
): boolean {
  return forcedChangeParam === 'true' && mustChangePassword && staffId !== ADMIN_STAFF_ID;
}
