import { type DepartmentForm, type DepartmentNode, ResultCode } from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { checkTreePlace, treeParents } from '../../db/tree.ts';
import { AppError } from '../../http/app-error.ts';
import {
  deleteDepartment,
  departmentExists,
  departmentTree,
  departmentUsage,
  insertDepartment,
  listDepartments,
  updateDepartment,
} from './department.repository.ts';
import { buildDepartmentTree } from './department-tree.ts';
import { checkDepartmentMove } from './grant-checks.ts';
import type { Grantor } from './grant-rule.ts';

/** Writes to the tree run one at a time, so two concurrent moves cannot close a loop between them. */
const TREE_LOCK = 'org.department-tree';

export class DepartmentService {
  constructor(private readonly db: Db) {}

  async tree(): Promise<DepartmentNode[]> {
    return buildDepartmentTree(await listDepartments(this.db));
  }

  create(form: DepartmentForm): Promise<{ id: string }> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, TREE_LOCK);
      await checkTreePlace(tx, departmentTree, form, ResultCode.DepartmentCycle);
      return { id: await insertDepartment(tx, form) };
    });
  }

  /** Moving a department moves the staff below it from under some departments to others (finding 8). */
  update(user: Grantor, form: DepartmentForm & { id: string }): Promise<void> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, TREE_LOCK);
      await checkTreePlace(tx, departmentTree, form, ResultCode.DepartmentCycle);
      const parents = await treeParents(tx, departmentTree);
      await checkDepartmentMove(tx, user, parents.get(form.id) ?? null, form.parentId || null);
      await updateDepartment(tx, form.id, form);
    });
  }

  /** Only a department without sub-departments and without staff can go (spec §5). */
  remove(id: string): Promise<void> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, TREE_LOCK);
      if (!(await departmentExists(tx, id))) throw new AppError(ResultCode.NotFound);
      const usage = await departmentUsage(tx, id);
      if (usage.children > 0) throw new AppError(ResultCode.DepartmentHasChildren);
      if (usage.staff > 0)
        throw new AppError(ResultCode.DepartmentHasStaff, { params: { count: usage.staff } });
      await deleteDepartment(tx, id);
    });
  }
}
