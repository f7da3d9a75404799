import { type AdjustValueForm, type AdjustValueRow, ResultCode } from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import {
  adjustValueExists,
  deleteAdjustValueRow,
  insertAdjustValue,
  listAdjustValues,
  updateAdjustValueRow,
} from './adjust-value.repository.ts';
import { deviceState } from './device.repository.ts';

/** Correction values of devices (spec §3 Adjust value; the endpoints belong to SupportAdjustValue). */
export class AdjustValueService {
  constructor(private readonly db: Db) {}

  async ofDevice(deviceId: string): Promise<AdjustValueRow[]> {
    await this.checkDevice(this.db, deviceId);
    return listAdjustValues(this.db, deviceId);
  }

  async create(form: AdjustValueForm): Promise<{ id: string }> {
    return this.db.transaction(async (tx) => {
      await this.checkDevice(tx, form.deviceId, 'share');
      return { id: await insertAdjustValue(tx, form) };
    });
  }

  async update(form: AdjustValueForm & { id: string }): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await adjustValueExists(tx, form.id))) throw new AppError(ResultCode.NotFound);
      await this.checkDevice(tx, form.deviceId, 'share');
      await updateAdjustValueRow(tx, form.id, form);
    });
  }

  async remove(id: string): Promise<void> {
    if (!(await adjustValueExists(this.db, id))) throw new AppError(ResultCode.NotFound);
    await deleteAdjustValueRow(this.db, id);
  }

  /** The device must exist; with `share`, it is kept from being deleted meanwhile. */
  private async checkDevice(db: Db, deviceId: string, lock?: 'share'): Promise<void> {
    if (!(await deviceState(db, deviceId, lock))) throw new AppError(ResultCode.NotFound);
  }
}
