import {
  ADMIN_ROLE_ID,
  type Page,
  type PageQuery,
  ResultCode,
  type RoleAbilities,
  type RoleAction,
  type RoleForm,
  type RoleListRow,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import { departmentExists } from './department.repository.ts';
import { roleKeySources } from './grant-checks.ts';
import { type Grantor, keysBeyond } from './grant-rule.ts';
import {
  allRoles,
  deleteRole,
  insertRole,
  queryRoles,
  type RoleSearch,
  roleExists,
  roleNameTaken,
  updateRole,
} from './role.repository.ts';

const ROLE_ACTIONS: readonly RoleAction[] = ['update', 'grant', 'delete'];

/**
 * Why `action` may not be done to the role `id`, or null when the rule allows it: the built-in role `admin`
 * holds every key and is never changed (ARCHITECTURE §4). One rule for the list's `abilities` and the refusals.
 */
export function roleRefusal(id: string, _action: RoleAction): ResultCode | null {
  return id === ADMIN_ROLE_ID ? ResultCode.BuiltInRole : null;
}

export function refuseRoleAction(id: string, action: RoleAction): void {
  const refusal = roleRefusal(id, action);
  if (refusal !== null) throw new AppError(refusal);
}

/** What may be done with a role (the `abilities` of a role list row). */
export function roleAbilitiesOf(id: string): RoleAbilities {
  return Object.fromEntries(
    ROLE_ACTIONS.map((action) => [action, roleRefusal(id, action) === null]),
  ) as unknown as RoleAbilities;
}

export class RoleService {
  constructor(private readonly db: Db) {}

  /** A page of roles, each row with what may be done with it. */
  async query(search: RoleSearch & PageQuery): Promise<Page<RoleListRow>> {
    const page = await queryRoles(this.db, search, search);
    return { ...page, rows: page.rows.map((row) => ({ ...row, abilities: roleAbilitiesOf(row.id) })) };
  }

  /** Every role, and whether `user` may give it or take it away (holds every key of it, finding 8). */
  async all(user: Grantor) {
    const roles = await allRoles(this.db);
    const sources = await roleKeySources(
      this.db,
      roles.map((r) => r.id),
    );
    return roles.map((r) => ({ ...r, assignable: keysBeyond(user, [sources.get(r.id)!]).length === 0 }));
  }

  create(form: RoleForm): Promise<{ id: string }> {
    return this.db.transaction(async (tx) => {
      await this.checkForm(tx, form);
      return { id: await insertRole(tx, form) };
    });
  }

  update(form: RoleForm & { id: string }): Promise<void> {
    refuseRoleAction(form.id, 'update');
    return this.db.transaction(async (tx) => {
      if (!(await roleExists(tx, form.id))) throw new AppError(ResultCode.NotFound);
      await this.checkForm(tx, form, form.id);
      await updateRole(tx, form.id, form);
    });
  }

  remove(id: string): Promise<void> {
    refuseRoleAction(id, 'delete');
    return this.db.transaction(async (tx) => {
      if (!(await roleExists(tx, id))) throw new AppError(ResultCode.NotFound);
      await deleteRole(tx, id);
    });
  }

  /** Role names have no unique index (they are unique ignoring case): the writes take turns. */
  private async checkForm(db: Db, form: RoleForm, id?: string): Promise<void> {
    await lockForTransaction(db, 'org.role-names');
    if (form.deptId && !(await departmentExists(db, form.deptId))) {
      throw AppError.invalid([{ path: 'deptId', message: 'v.invalid' }]);
    }
    if (await roleNameTaken(db, form.name, id)) {
      throw new AppError(ResultCode.NameTaken, { params: { name: form.name } });
    }
  }
}
