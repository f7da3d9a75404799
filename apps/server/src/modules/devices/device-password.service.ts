import {
  type DevicePasswordForm,
  type DevicePasswordRow,
  type Page,
  type PageQuery,
  ResultCode,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import {
  type DevicePasswordSearch,
  deviceExists,
  passwordOf,
  queryDevicePasswords,
  upsertPassword,
} from './device-password.repository.ts';

/**
 * Permanent device passwords (spec §2 /device/device-password): listed without the password, shown only
 * through `view` to holders of its permission; the password is never written to a log.
 */
export class DevicePasswordService {
  constructor(private readonly db: Db) {}

  query(query: DevicePasswordSearch & PageQuery): Promise<Page<DevicePasswordRow>> {
    return queryDevicePasswords(this.db, query, query);
  }

  async view(deviceId: string): Promise<{ password: string | null }> {
    if (!(await deviceExists(this.db, deviceId))) throw new AppError(ResultCode.NotFound);
    return { password: await passwordOf(this.db, deviceId) };
  }

  /** Sets the password, recording who set it. */
  async save(form: DevicePasswordForm, staffName: string): Promise<void> {
    if (!(await deviceExists(this.db, form.deviceId))) throw new AppError(ResultCode.NotFound);
    await upsertPassword(this.db, form.deviceId, form.password, staffName);
  }
}
