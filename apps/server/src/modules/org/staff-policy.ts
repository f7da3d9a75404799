import { ADMIN_STAFF_ID, ResultCode, type StaffAbilities, type StaffAction } from '@uiot/contracts';
import { AppError } from '../../http/app-error.ts';

const ACTIONS: readonly StaffAction[] = [
  'update',
  'enable',
  'disable',
  'resetPwd',
  'assignRoles',
  'grant',
  'delete',
];
const NOT_ON_ONESELF: ReadonlySet<StaffAction> = new Set(['disable', 'resetPwd', 'delete']);
/**
 * What acts on the account itself (its profile and e-mail, whether it signs in, its password, its
 * existence): only a user holding every key the account holds may do it (`checkAccountWithin`), or a
 * helpdesk user could change an administrator's e-mail, disable or delete every administrator. Roles and
 * grants are checked key by key where they change.
 */
export const ACCOUNT_ACTIONS: ReadonlySet<StaffAction> = new Set([
  'update',
  'enable',
  'disable',
  'resetPwd',
  'delete',
]);

/**
 * Why the user `actorId` may not do `action` to the staff member `id`, or null when the rule allows it (the
 * permission key of the call is the guard's). `beyondUser`: the account holds keys the user does not. One
 * rule for both what the staff lists offer (`abilities`) and what the service refuses, so the two cannot
 * drift apart.
 */
export function staffRefusal(
  actorId: string,
  id: string,
  action: StaffAction,
  beyondUser = false,
): ResultCode | null {
  // Deleting oneself reads as such even for the administrator.
  if (action === 'delete' && id === actorId) return ResultCode.CannotDeleteSelf;
  if (id === ADMIN_STAFF_ID) return ResultCode.BuiltInAccount;
  if (NOT_ON_ONESELF.has(action) && id === actorId) return ResultCode.Forbidden;
  if (beyondUser && ACCOUNT_ACTIONS.has(action)) return ResultCode.GrantBeyondOwn;
  return null;
}

/** Refuses the action with the rule's code. */
export function refuseStaffAction(actorId: string, id: string, action: StaffAction): void {
  const refusal = staffRefusal(actorId, id, action);
  if (refusal !== null) throw new AppError(refusal);
}

/** What the user may do with a staff member, per action (the `abilities` of a staff list row). */
export function staffAbilitiesOf(actorId: string, id: string, beyondUser = false): StaffAbilities {
  return Object.fromEntries(
    ACTIONS.map((action) => [action, staffRefusal(actorId, id, action, beyondUser) === null]),
  ) as unknown as StaffAbilities;
}
