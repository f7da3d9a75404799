import { type DeviceTypeForm, type DeviceTypeNode, type IntervalForm, ResultCode } from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { isForeignKeyViolation } from '../../db/errors.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import { buildTree, byIndexThenName } from '../../lib/tree.ts';
import {
  type DeviceTypeRecord,
  deleteDeviceType,
  deviceTypeCodeTaken,
  deviceTypeInUse,
  deviceTypeNameTaken,
  deviceTypePlace,
  insertDeviceType,
  listDeviceTypes,
  subTypeCount,
  updateDeviceType,
  updateIntervals,
} from './device-type.repository.ts';
import { keepsTwoLevels } from './device-type-levels.ts';

/** Writes to the catalogue run one at a time, so levels, codes and sibling names stay consistent. */
const CATALOGUE_LOCK = 'devices.device-type-tree';

const typeOrder = byIndexThenName<DeviceTypeRecord>(
  (t) => t.sortIndex,
  (t) => t.name,
);

/**
 * Device types: main types and their sub types, with the intervals the IoT pipeline uses, and the subject
 * of DevTypeOp grants (spec §6).
 */
export class DeviceTypeService {
  constructor(private readonly db: Db) {}

  async tree(): Promise<DeviceTypeNode[]> {
    return buildTree(await listDeviceTypes(this.db), typeOrder);
  }

  create(form: DeviceTypeForm): Promise<{ id: string }> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, CATALOGUE_LOCK);
      await this.checkPlace(tx, form);
      return { id: await insertDeviceType(tx, form) };
    });
  }

  update(form: DeviceTypeForm & { id: string }): Promise<void> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, CATALOGUE_LOCK);
      if (!(await deviceTypePlace(tx, form.id))) throw new AppError(ResultCode.NotFound);
      await this.checkPlace(tx, form, form.id);
      await updateDeviceType(tx, form.id, form);
    });
  }

  /** Sets the reporting and heartbeat intervals only (spec §2 interval management). */
  async updateInterval(form: IntervalForm): Promise<void> {
    if (!(await updateIntervals(this.db, form))) throw new AppError(ResultCode.NotFound);
  }

  /** Only a type without sub types and devices can go; its DevTypeOp grants go with it. */
  async remove(id: string): Promise<void> {
    try {
      await this.db.transaction(async (tx) => {
        await lockForTransaction(tx, CATALOGUE_LOCK);
        if (!(await deviceTypePlace(tx, id))) throw new AppError(ResultCode.NotFound);
        if ((await subTypeCount(tx, id)) > 0) throw new AppError(ResultCode.DeviceTypeHasChildren);
        if (await deviceTypeInUse(tx, id)) throw new AppError(ResultCode.DeviceTypeInUse);
        await deleteDeviceType(tx, id);
      });
    } catch (error) {
      // A device (or unit) given this type while it was being deleted: the database refuses, and so do we.
      if (isForeignKeyViolation(error)) throw new AppError(ResultCode.DeviceTypeInUse);
      throw error;
    }
  }

  /** Two levels only, the code unique over the catalogue and the name among siblings. */
  private async checkPlace(db: Db, form: DeviceTypeForm, id?: string): Promise<void> {
    const parentId = form.parentId || null;
    const parent = parentId ? await deviceTypePlace(db, parentId) : undefined;
    const hasSubTypes = id !== undefined && parentId !== null && (await subTypeCount(db, id)) > 0;
    if (!keepsTwoLevels({ id, parentId, parentOfParent: parent?.parentId, hasSubTypes })) {
      throw new AppError(ResultCode.DeviceTypeLevel);
    }
    if (await deviceTypeCodeTaken(db, form.code, id)) {
      throw new AppError(ResultCode.CodeTaken, { params: { code: form.code } });
    }
    if (await deviceTypeNameTaken(db, parentId, form.name, id)) {
      throw new AppError(ResultCode.NameTaken, { params: { name: form.name } });
    }
  }
}
