import { ResultCode, type UnitForm, type UnitNode } from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { checkTreePlace } from '../../db/tree.ts';
import { AppError } from '../../http/app-error.ts';
import { DEFAULT_STATION } from '../../lib/station.ts';
import { buildTree, byIndexThenName } from '../../lib/tree.ts';
import { unitHasDevices } from './device.repository.ts';
import {
  deleteUnit,
  insertUnit,
  listUnits,
  type UnitRecord,
  unitChildCount,
  unitExists,
  unitTree,
  updateUnit,
} from './unit.repository.ts';

/**
 * Writes to the tree run one at a time, so two concurrent moves cannot close a loop between them; imports
 * of units and devices take it too.
 */
export const UNIT_TREE_LOCK = 'devices.unit-tree';

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
      await lockForTransaction(tx, UNIT_TREE_LOCK);
      await checkTreePlace(tx, unitTree, form, ResultCode.UnitCycle);
      return { id: await insertUnit(tx, form, this.stationId) };
    });
  }

  update(form: UnitForm & { id: string }): Promise<void> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, UNIT_TREE_LOCK);
      await checkTreePlace(tx, unitTree, form, ResultCode.UnitCycle);
      await updateUnit(tx, form.id, form);
    });
  }

  /**
   * Only a unit without sub-units can go (spec §5: a node with children cannot be deleted), and only when
   * no device belongs to it.
   */
  remove(id: string): Promise<void> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, UNIT_TREE_LOCK);
      if (!(await unitExists(tx, id))) throw new AppError(ResultCode.NotFound);
      if ((await unitChildCount(tx, id)) > 0) throw new AppError(ResultCode.UnitHasChildren);
      if (await unitHasDevices(tx, id)) throw new AppError(ResultCode.UnitHasDevices);
      await deleteUnit(tx, id);
    });
  }
}
