import { ResultCode, type UnitForm, type UnitNode } from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import { buildTree, byIndexThenName, wouldCreateCycle } from '../../lib/tree.ts';
import { DEFAULT_STATION } from '../org/admin-account.ts';
import { unitHasDevices } from './device.repository.ts';
import {
  deleteUnit,
  insertUnit,
  listUnits,
  type UnitRecord,
  unitChildCount,
  unitExists,
  unitNameTaken,
  unitParents,
  updateUnit,
} from './unit.repository.ts';

/** Writes to the tree run one at a time, so two concurrent moves cannot close a loop between them. */
const TREE_LOCK = 'devices.unit-tree';

const unitOrder = byIndexThenName<UnitRecord>(
  (u) => u.sortIndex,
  (u) => u.name,
);

/** Operation units (spec §3): a tree with the rules of the department tree (spec §5). */
export class UnitService {
  constructor(
    private readonly db: Db,
    /** The installation's station, given to every new unit. */
    private readonly stationId: string = DEFAULT_STATION.id,
  ) {}

  async tree(): Promise<UnitNode[]> {
    return buildTree(await listUnits(this.db), unitOrder);
  }

  create(form: UnitForm): Promise<{ id: string }> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, TREE_LOCK);
      await this.checkPlace(tx, form);
      return { id: await insertUnit(tx, form, this.stationId) };
    });
  }

  update(form: UnitForm & { id: string }): Promise<void> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, TREE_LOCK);
      const parents = await unitParents(tx);
      if (!parents.has(form.id)) throw new AppError(ResultCode.NotFound);
      await this.checkPlace(tx, form, form.id);
      if (wouldCreateCycle((id) => parents.get(id), form.id, form.parentId)) {
        throw new AppError(ResultCode.UnitCycle);
      }
      await updateUnit(tx, form.id, form);
    });
  }

  /**
   * Only a unit without sub-units can go (spec §5: a node with children cannot be deleted), and only when
   * no device belongs to it.
   */
  remove(id: string): Promise<void> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, TREE_LOCK);
      if (!(await unitExists(tx, id))) throw new AppError(ResultCode.NotFound);
      if ((await unitChildCount(tx, id)) > 0) throw new AppError(ResultCode.UnitHasChildren);
      if (await unitHasDevices(tx, id)) throw new AppError(ResultCode.UnitHasDevices);
      await deleteUnit(tx, id);
    });
  }

  /** The parent must exist and the name be free among its children. */
  private async checkPlace(db: Db, form: UnitForm, id?: string): Promise<void> {
    const parentId = form.parentId || null;
    if (parentId && !(await unitExists(db, parentId))) {
      throw AppError.invalid([{ path: 'parentId', message: 'v.invalid' }]);
    }
    if (await unitNameTaken(db, parentId, form.name, id)) {
      throw new AppError(ResultCode.NameTaken, { params: { name: form.name } });
    }
  }
}
