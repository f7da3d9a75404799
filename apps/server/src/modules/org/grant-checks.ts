import { ADMIN_ROLE_ID, ResultCode } from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { treeParents } from '../../db/tree.ts';
import { AppError } from '../../http/app-error.ts';
import { pathToRoot } from '../../lib/tree.ts';
import { departmentTree } from './department.repository.ts';
import { grantsOfSubjects } from './grant.repository.ts';
import { changedMembers, type Grantor, type KeySource, keysBeyond } from './grant-rule.ts';
import { loadStaffAccess, loadStaffKeys } from './staff-access.repository.ts';

/**
 * The checks of every way keys change hands (finding 8): a grant set, roles given or taken, a staff member or
 * a department moved under other departments, an account approved or taken over by a password reset. Each
 * refuses, with HTTP 403 and code 1025 naming the keys, a change that would hand out or take away keys the
 * acting user does not hold. The operation log keeps the refused call with its code.
 */
export function grantRefused(keys: readonly string[]): AppError {
  return new AppError(ResultCode.GrantBeyondOwn, { httpStatus: 403, data: { keys } });
}

function refuseKeysBeyond(user: Grantor, sources: readonly KeySource[]): void {
  const beyond = keysBeyond(user, sources);
  if (beyond.length > 0) throw grantRefused(beyond);
}

/** What each role hands its holders; role `admin` hands every key. */
export async function roleKeySources(db: Db, roleIds: readonly string[]): Promise<Map<string, KeySource>> {
  const grants = await grantsOfSubjects(db, 'Role', roleIds);
  return new Map(
    roleIds.map((id) => [
      id,
      id === ADMIN_ROLE_ID ? { all: true, keys: [] } : { all: false, keys: grants.get(id) ?? [] },
    ]),
  );
}

/** Roles given to or taken from a staff member: the user must hold every key of each. */
export async function checkRoleChange(
  db: Db,
  user: Grantor,
  before: readonly string[],
  after: readonly string[],
): Promise<void> {
  const changed = changedMembers(before, after);
  if (changed.length > 0) refuseKeysBeyond(user, [...(await roleKeySources(db, changed)).values()]);
}

/**
 * A staff member moved from one department to another, or a department (with the staff below it) from one
 * parent to another (null: the top level): its holders gain the keys of the departments above it that it
 * enters and lose those of the departments it leaves, so the user must hold each of those keys.
 */
export async function checkDepartmentMove(
  db: Db,
  user: Grantor,
  before: string | null,
  after: string | null,
): Promise<void> {
  if (before === after) return;
  const parents = await treeParents(db, departmentTree);
  const chain = (id: string | null) => (id ? pathToRoot((node) => parents.get(node), id) : []);
  const changed = changedMembers(chain(before), chain(after));
  if (changed.length === 0) return;
  const grants = await grantsOfSubjects(db, 'Department', changed);
  refuseKeysBeyond(
    user,
    changed.map((id) => ({ all: false, keys: grants.get(id) ?? [] })),
  );
}

/**
 * An account acted on (`ACCOUNT_ACTIONS`: changed, disabled, deleted, its password reset to one the user is
 * shown) or handed over (approved for its first sign-in): the user must hold every key the account holds.
 */
export async function checkAccountWithin(db: Db, user: Grantor, staffId: string): Promise<void> {
  const access = await loadStaffAccess(db, staffId);
  refuseKeysBeyond(user, [{ all: access.isAdmin, keys: [...access.permissions] }]);
}

/** The accounts among these that hold keys the user does not (`checkAccountWithin` for a page of them). */
export async function accountsBeyond(
  db: Db,
  user: Grantor,
  staffIds: readonly string[],
): Promise<Set<string>> {
  if (user.isAdmin) return new Set();
  const keys = await loadStaffKeys(db, staffIds);
  return new Set(
    [...keys]
      .filter(
        ([, account]) => keysBeyond(user, [{ all: account.isAdmin, keys: account.permissions }]).length > 0,
      )
      .map(([id]) => id),
  );
}
