import { type DepartmentForm, type DepartmentNode, ResultCode } from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import { wouldCreateCycle } from '../../lib/tree.ts';
import {
  deleteDepartment,
  departmentExists,
  departmentParents,
  departmentUsage,
  insertDepartment,
  listDepartments,
  siblingNameTaken,
  updateDepartment,
} from './department.repository.ts';
import { buildDepartmentTree } from './department-tree.ts';

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
      await this.checkPlace(tx, form);
      return { id: await insertDepartment(tx, form) };
    });
  }

  update(form: DepartmentForm & { id: string }): Promise<void> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, TREE_LOCK);
      const parents = await departmentParents(tx);
      if (!parents.has(form.id)) throw new AppError(ResultCode.NotFound);
      await this.checkPlace(tx, form, form.id);
      if (wouldCreateCycle((id) => parents.get(id), form.id, form.parentId)) {
        throw new AppError(ResultCode.DepartmentCycle);
      }
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

  /** The parent must exist and the name be free among its children. */
  private async checkPlace(db: Db, form: DepartmentForm, id?: string): Promise<void> {
    const parentId = form.parentId || null;
    if (parentId && !(await departmentExists(db, parentId))) {
      throw AppError.invalid([{ path: 'parentId', message: 'v.invalid' }]);
    }
    if (await siblingNameTaken(db, parentId, form.name, id)) {
      throw new AppError(ResultCode.NameTaken, { params: { name: form.name } });
    }
  }
}
