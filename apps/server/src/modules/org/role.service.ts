import { ADMIN_ROLE_ID, type PageQuery, ResultCode, type RoleForm } from '@uiot/contracts';
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

/** The built-in role `admin` holds every key and is never changed (ARCHITECTURE §4). */
export function refuseBuiltInRole(id: string): void {
  if (id === ADMIN_ROLE_ID) throw new AppError(ResultCode.BuiltInRole);
}

export class RoleService {
  constructor(private readonly db: Db) {}

  query(search: RoleSearch & PageQuery) {
    return queryRoles(this.db, search, search);
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
    refuseBuiltInRole(form.id);
    return this.db.transaction(async (tx) => {
      if (!(await roleExists(tx, form.id))) throw new AppError(ResultCode.NotFound);
      await this.checkForm(tx, form, form.id);
      await updateRole(tx, form.id, form);
    });
  }

  remove(id: string): Promise<void> {
    refuseBuiltInRole(id);
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
